/** The ingest bench uses the data bench's models (bench/prepare/data.ts). */
import './data';
