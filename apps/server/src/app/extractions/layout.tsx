import type { ReactNode } from 'react';
import { EXTRACTIONS_CSS } from './_components/styles';

export const metadata = { title: 'Documents · Tandem' };

export default function ExtractionsLayout({ children }: { children: ReactNode }) {
  return (
    <div className="docs-page">
      <style>{EXTRACTIONS_CSS}</style>
      {children}
    </div>
  );
}
