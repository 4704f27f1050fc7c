// Limits appear in user-facing messages; group digits without depending on the runtime's ICU data.
export const formatCount = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
