'use client';
import { useEffect } from 'react';

/**
 * Marks the page as hydrated (`<html data-hydrated>`). React resets a server-rendered
 * textarea to its default value when it hydrates, so a browser test that types before then
 * loses its input; e2e tests wait for this mark before they type into a form.
 */
export function HydrationMark(): null {
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return null;
}
