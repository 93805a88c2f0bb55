// Renders as on a phone or a desktop: the width the layout reads (jsdom's is 1024), changed
// as a resized window changes it.
import { act } from '@testing-library/react';

export function atWidth(width: number) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: width });
  act(() => {
    window.dispatchEvent(new Event('resize'));
  });
}

export const PHONE = 390;
export const DESKTOP = 1024;
