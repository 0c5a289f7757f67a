/** The grounded-answer bench runs the data bench's models: bench/prepare/data.ts writes them. */
import './data';
