import { describe, expect, it } from 'vitest';
import { cssPixelSize } from './screenshot';

describe('cssPixelSize', () => {
  it('scales a high-DPI shot down to the viewport, keeping its aspect', () => {
    expect(cssPixelSize({ width: 2560, height: 1600 }, { width: 1280, height: 800 })).toEqual({
      width: 1280,
      height: 800,
    });
    expect(cssPixelSize({ width: 1500, height: 1000 }, { width: 1000, height: 667 })).toEqual({
      width: 1000,
      height: 667,
    });
  });

  it('leaves a shot that is one-to-one already, or whose viewport is unknown', () => {
    expect(cssPixelSize({ width: 1280, height: 800 }, { width: 1280, height: 800 })).toBeNull();
    expect(cssPixelSize({ width: 1281, height: 800 }, { width: 1280, height: 800 })).toBeNull();
    expect(cssPixelSize({ width: 2560, height: 1600 }, undefined)).toBeNull();
  });
});
