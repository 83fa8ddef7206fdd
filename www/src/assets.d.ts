// Vite's `?url` imports: the bundled file's URL (the file is copied into dist/assets).
declare module "*?url" {
  const url: string;
  export default url;
}

// Vite's `?raw` imports: the file's text, bundled into the script.
declare module "*?raw" {
  const text: string;
  export default text;
}
