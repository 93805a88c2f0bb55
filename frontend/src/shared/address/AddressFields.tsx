// Address fields for Thai and international addresses. Thai fields autocomplete from the
// kept dataset: typing a sub-district, district, province or postcode offers full entries,
// and picking one fills all four. International addresses use country, city and state.
import { useEffect, useMemo, useState } from 'react';
import { AutoComplete, Col, Form, Input, Row, Select, Switch, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';

import { checkRequired, checkThaiPostcode, MSG } from '@/shared/form/rules';
import { useCheck } from '@/shared/form/useCheck';
import { formatThaiAddress, loadThaiAddresses, searchThaiAddresses, type AddressField, type ThaiAddress } from '@/shared/thai-address';
import { countryOptions } from './countries';

export interface AddressValues {
  address: string;
  subDistrict: string;
  district: string;
  stateProvince: string;
  postcode: string;
  country: string;
  city: string;
}

export function isInternational(country: string | undefined): boolean {
  return Boolean(country && country.toUpperCase() !== 'TH');
}

/** A field's name under `prefix` (the address' place in a bigger form). */
type NamePath = (string | number)[];
const under = (prefix: NamePath | undefined, name: string): string | NamePath => (prefix ? [...prefix, name] : name);

/** Whether the form's address is abroad: the switch says so even before a country is
 * chosen; a saved address says it by its country. `prefix`: where the address sits. */
export function useInternational(form: FormInstance, prefix?: NamePath): boolean {
  const country = Form.useWatch(under(prefix, 'country'), form) as string | undefined;
  const marked = Form.useWatch(under(prefix, 'international'), form) as boolean | undefined;
  return marked ?? isInternational(country);
}

/** The address part of a request: an address marked abroad goes with `international` and
 * whatever country was chosen (the server refuses it without one), a Thai one as TH. */
export function addressCountry(v: { country?: string; international?: boolean }): { country: string; international: boolean } {
  const international = v.international ?? isInternational(v.country);
  return { country: v.country || (international ? '' : 'TH'), international };
}

const FIELDS: { name: AddressField; form: keyof AddressValues; label: string }[] = [
  { name: 'subDistrict', form: 'subDistrict', label: 'address.subDistrict' },
  { name: 'district', form: 'district', label: 'address.district' },
  { name: 'province', form: 'stateProvince', label: 'address.province' },
  { name: 'postcode', form: 'postcode', label: 'address.postcode' },
];

/** `thaiOnly`: a Thai address without the abroad switch (a store's own address). `prefix`:
 * the address' fields sit under this name path of the form (an order's `shippingAddress`).
 * `optional`: nothing is required, what is typed must still be well formed (an order may be
 * saved before the buyer sends the address). */
export function AddressFields({
  form,
  thaiOnly = false,
  prefix,
  optional = false,
}: {
  form: FormInstance;
  thaiOnly?: boolean;
  prefix?: NamePath;
  optional?: boolean;
}) {
  const { t, i18n } = useTranslation('common');
  const abroad = useInternational(form, prefix);
  const name = (n: string) => under(prefix, n);
  /** Sets several of the address' fields at once. */
  const setValues = (values: Record<string, unknown>) => form.setFields(Object.entries(values).map(([k, value]) => ({ name: name(k), value, errors: [] })));
  const international = !thaiOnly && abroad;
  const [all, setAll] = useState<ThaiAddress[] | null>(null);
  const [query, setQuery] = useState<{ field: AddressField; text: string } | null>(null);
  const load = () => {
    if (!all) void loadThaiAddresses().then(setAll).catch(() => undefined);
  };
  useEffect(load, []); // eslint-disable-line react-hooks/exhaustive-deps
  const matches = useMemo(() => (all && query ? searchThaiAddresses(all, query.field, query.text, 15) : []), [all, query]);
  const rule = useCheck();
  const countries = useMemo(() => countryOptions(i18n.language, ['TH']), [i18n.language]);

  return (
    <>
      <Form.Item label={t('address.international')} hidden={thaiOnly}>
        <Switch
          checked={international}
          data-testid="address-international"
          onChange={(on) => setValues({ international: on, country: on ? undefined : 'TH', subDistrict: '', district: '', stateProvince: '', postcode: '', city: '' })}
        />
      </Form.Item>
      <Form.Item name={name('international')} hidden valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item name={name('country')} hidden initialValue="TH">
        <Input />
      </Form.Item>
      <Form.Item name={name('address')} label={t('address.line')} rules={[rule((v) => checkRequired(v, 500), optional)]}>
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} data-testid="field-address" />
      </Form.Item>
      {international ? (
        <Row gutter={12}>
          <Col xs={24} md={12}>
            <Form.Item name={name('country')} label={t('address.country')} rules={[{ required: true, message: t(MSG.required) }]}>
              <Select showSearch options={countries} optionFilterProp="label" data-testid="field-country" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name={name('city')} label={t('address.city')} rules={[rule((v) => checkRequired(v, 100), optional)]}>
              <Input data-testid="field-city" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name={name('stateProvince')} label={t('address.state')}>
              <Input data-testid="field-state" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name={name('postcode')} label={t('address.zip')}>
              <Input data-testid="field-zip" />
            </Form.Item>
          </Col>
        </Row>
      ) : (
        <Row gutter={12}>
          {FIELDS.map((f) => (
            <Col xs={24} md={12} key={f.name}>
              <Form.Item
                name={name(f.form)}
                label={t(f.label)}
                rules={[rule(f.name === 'postcode' ? checkThaiPostcode : (v) => checkRequired(v, 100), optional)]}
              >
                <AutoComplete
                  data-testid={`field-${f.form}`}
                  onFocus={load}
                  onSearch={(text) => setQuery({ field: f.name, text })}
                  options={query?.field === f.name ? matches.map((m) => ({ value: formatThaiAddress(m), label: formatThaiAddress(m), entry: m })) : []}
                  onSelect={(_: string, option: { entry?: ThaiAddress }) => {
                    const m = option.entry;
                    if (!m) return;
                    // After the AutoComplete has written the picked option into its own field.
                    setTimeout(() => {
                      setValues({ subDistrict: m.subDistrict, district: m.district, stateProvince: m.province, postcode: m.postcode });
                      void form.validateFields(['subDistrict', 'district', 'stateProvince', 'postcode'].map(name));
                    }, 0);
                    setQuery(null);
                  }}
                >
                  {/* A Thai postcode is typed on the number pad. */}
                  {f.name === 'postcode' ? <Input inputMode="numeric" /> : undefined}
                </AutoComplete>
              </Form.Item>
            </Col>
          ))}
        </Row>
      )}
    </>
  );
}
