import { templateParts } from './routine-format';

/** A goal template with each `{parameter}` as a chip. */
export function TemplateText({ template }: { template: string }) {
  return (
    <span className="template">
      {templateParts(template).map((part, index) =>
        part.kind === 'parameter' ? (
          <code key={index} className="param">
            {part.name}
          </code>
        ) : (
          <span key={index}>{part.text}</span>
        ),
      )}
    </span>
  );
}
