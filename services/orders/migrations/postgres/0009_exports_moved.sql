-- Exports moved to the reports service (decision 0033): its history starts there. The
-- files of the exports recorded here expire by their age in file storage.
DROP TABLE order_exports;
