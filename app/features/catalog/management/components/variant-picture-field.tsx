import { PICTURE_FORMATS } from "../../core/catalog-format";

/**
 * A variant's own picture in the owner's table: what it shows now, a file to
 * replace it, and "Remove picture" (the product's shows again). Sent with the
 * table's form (multipart); an empty file keeps the picture.
 */
export function VariantPictureField({
  name,
  title,
  image,
  error,
  labelClassName,
  errorClassName,
}: {
  /** The row's field prefix: `variants[2]`. */
  name: string;
  /** The variant as the row names it ("M / Red"), for the labels read out. */
  title: string;
  image: string | null;
  error: string | undefined;
  labelClassName: string;
  errorClassName: string;
}) {
  const id = `field-${name.replace(/[[\].]/g, "-")}-picture`;
  return (
    <div className="space-y-2">
      <label htmlFor={id} className={`${labelClassName} md:sr-only`}>
        Picture <span className="sr-only">{`of ${title}`}</span>
      </label>
      {image ? (
        <img
          src={image}
          alt=""
          width={48}
          height={48}
          className="size-12 rounded border border-slate-300 object-cover"
        />
      ) : (
        <p className="text-sm text-slate-700">The product's</p>
      )}
      <input
        id={id}
        type="file"
        name={`${name}.picture`}
        accept={PICTURE_FORMATS.map((format) => format.type).join(",")}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className="block w-36 max-w-full overflow-hidden text-sm text-slate-800 file:mr-2 file:min-h-11 file:rounded-lg file:border file:border-slate-500 file:bg-white file:px-3 file:py-2 file:font-semibold"
      />
      {image ? (
        <label className="inline-flex min-h-11 items-center gap-2 text-sm text-slate-800">
          <input
            type="checkbox"
            name={`${name}.removePicture`}
            className="size-5 rounded border-slate-500 accent-indigo-700"
          />
          Remove picture <span className="sr-only">{`of ${title}`}</span>
        </label>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className={errorClassName}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
