/**
 * The owner's catalogue management, as the shop and its commands use it:
 * reading and writing catalogue files (CSV, JSON, NDJSON, Shopify's export),
 * comparing and importing them in one transaction, exporting, and the
 * product pictures an import makes and the shop serves. Everything else in
 * this folder is its own business (the linter keeps it so).
 */
export {
  type CatalogFileReading,
  catalogFileFormat,
  type FileProblem,
  readCatalogFile,
  writeCatalogFile,
} from "./catalog-file.server";
export {
  changedProducts,
  changesAnything,
  exportCatalog,
  ImportInterrupted,
  type ImportPlan,
  type ImportRow,
  importCatalogRows,
  productsAbsentFrom,
} from "./catalog-import.server";
export {
  hasPicture,
  PictureError,
  pictureSource,
  preparePicture,
  storePicture,
} from "./picture-import.server";
export { createPictureStore, type PictureStore, pictureResponse } from "./product-pictures.server";
