/** pdf.js's parser module, run in this thread as its "fake worker". */
declare module 'pdfjs-dist/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
