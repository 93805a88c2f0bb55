import { useEffect, useState } from 'react';

const QUERY = '(max-width: 767px)';

/** Mobile when the screen is narrow or the browser says it is a phone. */
export function detectMobile(width: number, userAgent: string): boolean {
  return width < 768 || /Mobi|Android|iPhone|iPod/i.test(userAgent);
}

export function useIsMobile(): boolean {
  const read = () => (typeof window === 'undefined' ? false : detectMobile(window.innerWidth, navigator.userAgent));
  const [mobile, setMobile] = useState(read);
  useEffect(() => {
    const mq = window.matchMedia?.(QUERY);
    const onChange = () => setMobile(read());
    mq?.addEventListener?.('change', onChange);
    window.addEventListener('resize', onChange);
    return () => {
      mq?.removeEventListener?.('change', onChange);
      window.removeEventListener('resize', onChange);
    };
  }, []);
  return mobile;
}
