// Vite's `?url` imports: the bundled file's URL (the file is copied into dist/assets).
declare module "*?url" {
  const url: string;
  export default url;
}
