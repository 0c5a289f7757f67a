/** The script-tag build: everything in `vaani`, plus the widgets (registered on load) as `Vaani.widgets`. */
export * from './index';
export * as widgets from './widgets/index';
