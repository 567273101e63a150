/**
 * The owner's catalogue management, as the shop and its commands use it:
 * reading and writing catalogue files (CSV, JSON, NDJSON, Shopify's export),
 * comparing and importing them in one transaction, exporting, and the
 * product pictures an import makes and the shop serves. Everything else in
 * this folder is its own business (the linter keeps it so).
 */

export { exportCatalog, exportCatalogText } from "./catalog-export.server";
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
  ImportInterrupted,
  type ImportPlan,
  productsAbsentFrom,
} from "./catalog-import.server";
export { catalogLabels, changeCatalogLabel } from "./catalog-labels.server";
export { importCatalogReading, importRefusal } from "./import-run.server";
export {
  catalogImportOf,
  checkCatalogUpload,
  confirmCatalogImport,
  latestCatalogImports,
} from "./import-uploads.server";
export {
  createProduct,
  deleteProduct,
  productForEditing,
  saveProduct,
  setProductArchived,
  uploadedPicture,
} from "./product-editing.server";
export { type ProductFlashCode, productFlash } from "./product-flash.server";
export { productIdOf } from "./product-id.server";
export { createPictureStore, type PictureStore, pictureResponse } from "./product-pictures.server";
export { applyVariantsForm, variantsForEditing } from "./variant-editing.server";
