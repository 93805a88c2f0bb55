// Styles of lists, filters and action bars on a phone and a desktop, injected once when a
// screen that uses them is first loaded (they stay out of the app's initial JavaScript).
const CSS = `
.bo-mobile .ant-card-body { padding: 12px; }
.bo-mobile .bo-page-head { margin-bottom: 8px; flex-wrap: nowrap; }
.bo-mobile .bo-page-head h1 { font-size: 18px; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.bo-mobile .ant-tabs-nav { margin-bottom: 8px; }
.bo-cards { display: flex; flex-direction: column; gap: 8px; }
.bo-cards-bar { display: flex; align-items: center; justify-content: space-between; gap: 8px; margin-bottom: 8px; min-height: 24px; }
.bo-list-card { display: flex; gap: 10px; align-items: flex-start; padding: 10px 12px; background: #fff; border: 1px solid #e5e7eb; border-radius: 8px; cursor: pointer; -webkit-user-select: none; user-select: none; -webkit-touch-callout: none; min-width: 0; }
.bo-list-card:active { background: #f5f7fa; }
.bo-list-card[aria-selected="true"] { border-color: #1677ff; background: #f0f7ff; }
.bo-list-card-body { flex: 1; min-width: 0; overflow-wrap: anywhere; }
.bo-card-row { display: flex; justify-content: space-between; align-items: baseline; gap: 8px; min-width: 0; }
.bo-card-row > * { min-width: 0; }
.bo-card-title { font-weight: 600; color: #0b2545; }
.bo-card-sub { color: #6b7280; font-size: 12px; }
.bo-card-tags { display: flex; flex-wrap: wrap; gap: 4px; margin-top: 4px; }
.bo-card-fields { display: flex; flex-direction: column; gap: 4px; }
.bo-card-field { display: flex; justify-content: space-between; align-items: baseline; gap: 12px; min-width: 0; }
.bo-card-label { flex: 0 0 38%; color: #6b7280; font-size: 13px; }
.bo-card-value { flex: 1; min-width: 0; text-align: right; overflow-wrap: anywhere; }
.bo-card-fields-stacked { gap: 8px; }
.bo-card-fields-stacked .bo-card-field { flex-direction: column; align-items: stretch; gap: 2px; }
.bo-card-fields-stacked .bo-card-label { flex: none; }
.bo-card-fields-stacked .bo-card-value { text-align: left; }
.bo-card-more { margin-top: 8px; padding-top: 8px; border-top: 1px dashed #e5e7eb; }
.bo-cards-empty { padding: 24px 0; text-align: center; color: #8c8c8c; }
.bo-filters { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin-bottom: 12px; }
.bo-mobile .bo-filters { flex-wrap: nowrap; margin-bottom: 8px; }
.bo-mobile .bo-filters > .bo-filters-search { flex: 1; min-width: 0; }
.bo-filters-drawer .ant-select, .bo-filters-drawer .ant-picker { width: 100% !important; }
.bo-filters-drawer .bo-filters-stack { display: flex; flex-direction: column; gap: 12px; }
.bo-bottom-bar { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
.bo-mobile .bo-bottom-bar { position: fixed; left: 0; right: 0; bottom: 0; z-index: 900; padding: 8px 12px calc(8px + env(safe-area-inset-bottom)); background: #fff; border-top: 1px solid #e5e7eb; box-shadow: 0 -2px 8px rgba(0,0,0,.06); flex-wrap: nowrap; overflow-x: auto; }
.bo-mobile .bo-bottom-bar > .ant-btn, .bo-mobile .bo-bottom-bar > .ant-space { flex: 0 1 auto; min-width: 0; }
.bo-mobile .bo-bottom-bar .ant-btn { min-width: 0; padding-inline: 10px; }
.bo-mobile .bo-bottom-bar .ant-btn > span:not(.ant-btn-icon) { overflow: hidden; text-overflow: ellipsis; }
.bo-bottom-space { height: 64px; }
.bo-more-menu { display: flex; flex-direction: column; gap: 8px; }
.bo-more-menu .ant-btn { width: 100%; justify-content: flex-start; }
.bo-mobile .ant-form-item { margin-bottom: 12px; }
.bo-mobile .ant-form .ant-row { row-gap: 0; }
.bo-mobile .ant-input-number, .bo-mobile .ant-picker { max-width: 100%; }
.bo-columns-menu { display: flex; flex-direction: column; gap: 4px; min-width: 220px; }
.bo-columns-menu-row { display: flex; align-items: center; justify-content: space-between; gap: 8px; }
`;

if (typeof document !== 'undefined' && !document.getElementById('bo-list-styles')) {
  const el = document.createElement('style');
  el.id = 'bo-list-styles';
  el.textContent = CSS;
  document.head.appendChild(el);
}

export {};
