import { fileURLToPath } from 'node:url';

/** The project's ../shared folder on disk (recorded speech, upstream fixtures), wherever the clone lives. */
export const SHARED_DIR = fileURLToPath(new URL('../../../shared/', import.meta.url));
