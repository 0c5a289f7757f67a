// The built library, as a site would load it: same-origin files, no inline script.
import * as vaani from '/dist/vaani.js';
import * as widgets from '/dist/widgets.js';

window.Vaani = { ...vaani, widgets };
document.title = 'ready';
