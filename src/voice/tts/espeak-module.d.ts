/** The optional eSpeak-NG plug-in ships no types; espeak.ts narrows what it uses. */
declare module '@echogarden/espeak-ng-emscripten' {
  const factory: (module?: object) => Promise<unknown>;
  export default factory;
}
