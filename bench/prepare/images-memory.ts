/** The memory scenario reads the same fixtures as the images one. */
import './images';
