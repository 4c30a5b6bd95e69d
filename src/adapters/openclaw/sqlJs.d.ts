// sql.js ships no type declarations. Its module.exports (the default export of an ESM import)
// initialises SQLite; sqliteStore.ts says which part of the result it uses.
declare module "sql.js" {
  const initSqlJs: (options: { wasmBinary: Uint8Array }) => Promise<unknown>;
  export default initSqlJs;
}
