/**
 * Noto faces for the scripts of India's 22 scheduled languages (OFL, from @fontsource), so the demo
 * renders them on a machine without Indic fonts. Each face declares its `unicode-range`: a browser
 * downloads a face only when the page shows a character in it.
 */
import '@fontsource/noto-sans-devanagari/400.css';
import '@fontsource/noto-sans-bengali/400.css';
import '@fontsource/noto-sans-tamil/400.css';
import '@fontsource/noto-sans-telugu/400.css';
import '@fontsource/noto-sans-kannada/400.css';
import '@fontsource/noto-sans-malayalam/400.css';
import '@fontsource/noto-sans-gujarati/400.css';
import '@fontsource/noto-sans-gurmukhi/400.css';
import '@fontsource/noto-sans-oriya/400.css';
import '@fontsource/noto-nastaliq-urdu/400.css';
import '@fontsource/noto-sans-ol-chiki/400.css';
import '@fontsource/noto-sans-meetei-mayek/400.css';
