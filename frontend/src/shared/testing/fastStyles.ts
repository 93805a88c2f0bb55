// jsdom matches every stylesheet rule antd has injected on each getComputedStyle, and antd's
// popups ask it of every ancestor when they open: screens full of selects and date pickers
// take minutes and time out on a busy machine. A test file that checks no visibility
// (`toBeVisible` reads computed styles) calls this to let the element's inline style stand in.
export function fastComputedStyle(): void {
  const real = window.getComputedStyle;
  beforeAll(() => {
    window.getComputedStyle = ((elt: Element) => (elt as HTMLElement).style ?? real(elt)) as typeof window.getComputedStyle;
  });
  afterAll(() => {
    window.getComputedStyle = real;
  });
}
