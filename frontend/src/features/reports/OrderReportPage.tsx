import { OrderReportPanel } from '@/features/orders/api';
import { ReportFrame } from './ReportFrame';

/** /report/order (SPEC §2 Reports: order, with the export history): a spreadsheet of the
 * orders of a date range and states asked for, built in the background, and every export
 * of the store with its progress, downloaded while it is kept. */
export default function OrderReportPage() {
  return (
    <ReportFrame tab="order">
      <OrderReportPanel />
    </ReportFrame>
  );
}
