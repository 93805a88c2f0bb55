// The stock screens' PDFs (pick lists, printed receipts, labels) are fetched and opened the
// way every screen does it: src/shared/pdf.
export { openPdf, pdfUrl } from '@/shared/pdf/pdf';
