import type { ReactNode } from 'react';

export const metadata = {
  title: 'Tandem',
  description: 'Tandem: an AI browser agent backend.',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body style={{ fontFamily: 'system-ui, sans-serif', margin: '2rem', lineHeight: 1.5 }}>
        {children}
      </body>
    </html>
  );
}
