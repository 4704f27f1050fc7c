// domino's own typings declare the module as 'domino', not under the name it is published as;
// this covers the one function used here.
declare module '@mixmark-io/domino' {
  export function createDocument(html?: string, force?: boolean): Document;
}
