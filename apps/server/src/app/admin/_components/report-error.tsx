// A report that could not be produced because of what was asked (a bad window or filter):
// say what is wrong next to the form instead of failing the page.
import { mapError } from '../../../server/http-error';

/** The message of a 4xx the admin service threw; anything else is re-thrown. */
export function clientErrorMessage(error: unknown): string {
  const mapped = mapError(error);
  if (mapped.status >= 500 || mapped.status === 401 || mapped.status === 403) throw error;
  return mapped.body.error.message;
}

export function ReportError({ message }: { message: string }) {
  return (
    <p className="error" role="alert">
      {message}
    </p>
  );
}
