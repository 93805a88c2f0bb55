// Layout styles the components share, injected once (antd styles itself).
const CSS = `
html, body, #root { height: 100%; margin: 0; }
body { font-family: 'Sarabun', 'Noto Sans Thai', system-ui, sans-serif; background: #f5f7fa; }
.bo-blocking-loader { position: fixed; inset: 0; display: flex; align-items: center; justify-content: center; background: rgba(255,255,255,.85); z-index: 2000; }
.bo-sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
.bo-layout { min-height: 100vh; }
.bo-header { display: flex; align-items: center; justify-content: space-between; gap: 16px; padding: 0 16px; height: 56px; background: #fff; border-bottom: 1px solid #e5e7eb; position: sticky; top: 0; z-index: 100; }
.bo-header-middle { flex: 1; display: flex; justify-content: center; }
.bo-brand { font-size: 16px; color: #0b2545; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; display: inline-block; max-width: 38vw; vertical-align: middle; }
.bo-header-start { display: flex; align-items: center; gap: 4px; min-width: 0; }
.bo-mobile .bo-user-name { display: none; }
.bo-search-desktop { max-width: 420px; }
.bo-mobile-search { padding: 8px 12px; background: #fff; border-bottom: 1px solid #e5e7eb; }
.bo-sider { border-right: 1px solid #e5e7eb; }
.bo-content { padding: 20px; }
.bo-mobile .bo-content { padding: 12px; }
.bo-content-narrow { max-width: 720px; margin: 0 auto; width: 100%; }
.bo-page-head { display: flex; align-items: center; justify-content: space-between; gap: 12px; flex-wrap: wrap; margin-bottom: 16px; }
.bo-page-head h1 { margin: 0; font-size: 20px; }
.bo-picture-box { display: flex; align-items: center; justify-content: center; border: 1px dashed #d9d9d9; border-radius: 6px; padding: 4px; background: #fafafa; }
.bo-receipt { width: 300px; max-width: 100%; background: #fff; border: 1px solid #e8e8e8; box-shadow: 0 2px 8px rgba(0,0,0,.08); padding: 16px 14px; font-family: 'Courier New', monospace, sans-serif; font-size: 12px; line-height: 1.5; color: #262626; }
.bo-receipt img { display: block; max-width: 100%; max-height: 90px; margin: 0 auto 8px; object-fit: contain; }
.bo-receipt-center { text-align: center; }
.bo-receipt-row { display: flex; justify-content: space-between; gap: 8px; }
.bo-receipt-rule { border-top: 1px dashed #8c8c8c; margin: 8px 0; }
.bo-receipt-footer { white-space: pre-wrap; text-align: center; margin-top: 8px; }
.bo-pager { display: flex; justify-content: flex-end; margin-top: 16px; }
.bo-pager-ellipsis { padding: 0 4px; color: #8c8c8c; }
.bo-pager-total { color: #595959; margin-right: 8px; }
.bo-center { min-height: 100vh; display: flex; align-items: center; justify-content: center; padding: 16px; }
.bo-card { width: 100%; max-width: 400px; }
.bo-thumb-empty { width: 40px; height: 40px; border-radius: 4px; background: #f0f2f5; }
.bo-photos { display: flex; flex-wrap: wrap; gap: 12px; }
.bo-photo { position: relative; width: 120px; height: 120px; border: 1px solid #e5e7eb; border-radius: 6px; overflow: hidden; cursor: grab; background: #fafafa; }
.bo-photo img { display: block; }
.bo-photo-cover { position: absolute; left: 4px; top: 4px; margin: 0; }
.bo-photo-delete { position: absolute; right: 4px; bottom: 4px; }
.bo-dialog { text-align: center; padding: 8px 4px; }
.bo-dialog-icon { font-size: 48px; line-height: 1; margin-bottom: 12px; }
`;

if (typeof document !== 'undefined' && !document.getElementById('bo-styles')) {
  const el = document.createElement('style');
  el.id = 'bo-styles';
  el.textContent = CSS;
  document.head.appendChild(el);
}

export {};
