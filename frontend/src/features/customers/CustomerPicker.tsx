import { useState } from 'react';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';

import { useListCustomersQuery, type CustomerBody } from './api';

/** Picks a customer by name or phone, searching the server as the user types. */
export function CustomerPicker({ storeId, onPick, style }: { storeId: number; onPick: (c: CustomerBody) => void; style?: React.CSSProperties }) {
  const { t } = useTranslation('customers');
  const [search, setSearch] = useState('');
  const { data, isFetching } = useListCustomersQuery({ id: storeId, search, limit: 10 }, { skip: search.trim().length < 1 });
  const options = (data?.data ?? []).map((c) => ({ value: c.id, label: `${c.name} · ${c.tel}`, customer: c }));
  return (
    <Select
      showSearch
      allowClear
      value={null}
      style={{ minWidth: 260, ...style }}
      placeholder={t('picker.placeholder')}
      filterOption={false}
      onSearch={setSearch}
      loading={isFetching}
      options={options}
      notFoundContent={search ? t('picker.none') : null}
      onSelect={(_value, option) => onPick(option.customer)}
      data-testid="customer-picker"
    />
  );
}
