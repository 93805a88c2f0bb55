"""The integrator's API as an integrator's app uses it: through a client generated from the
published OpenAPI document by openapi-python-client (the API test generates it next to this
script and puts it on PYTHONPATH), never by hand-written requests.

Reads BASE_URL (…/api/open-api/v1), API_KEY, OTHER_KEY (a key of another store), SKU_CODE
and RUN (a word that keeps this run's references apart); prints one JSON object of what it
saw, which the Rust test checks.
"""

import json
import os
import sys

from back_office_open_api_client import AuthenticatedClient
from back_office_open_api_client.api.integrator import (
    cancel_order,
    create_order,
    get_order,
    link_skus,
    list_orders,
    list_skus,
    list_stock,
)
from back_office_open_api_client.models import (
    CancelInput,
    IntegratorAddress,
    IntegratorLineInput,
    IntegratorLinkInput,
    IntegratorLinksInput,
    IntegratorOrderInput,
)

BASE = os.environ["BASE_URL"]
KEY = os.environ["API_KEY"]
OTHER = os.environ["OTHER_KEY"]
SKU = os.environ["SKU_CODE"]
RUN = os.environ.get("RUN", "1")

client = AuthenticatedClient(base_url=BASE, token=KEY, raise_on_unexpected_status=False)
seen = {}


def body(r):
    """The answer's JSON, whatever the generated model made of it."""
    try:
        return json.loads(r.content)
    except ValueError:
        return None


def address():
    return IntegratorAddress(
        name="สมหญิง รักดี",
        tel="089-111-2233",
        address="12/3 ถนนนิมมานเหมินท์",
        sub_district="สุเทพ",
        district="เมืองเชียงใหม่",
        state_province="เชียงใหม่",
        postcode="50200",
    )


def order(reference, quantity=2):
    return IntegratorOrderInput(
        reference=reference,
        address=address(),
        lines=[
            IntegratorLineInput(sku_code=SKU, quantity=quantity, unit_price_satang=19900),
            IntegratorLineInput(external_id=f"woo-{RUN}", quantity=1, unit_price_satang=19900),
        ],
        shipping_satang=4000,
        paid=True,
    )


# The store's SKUs and what is free of them in the channel's warehouse.
r = list_skus.sync_detailed(client=client, search=SKU)
skus = r.parsed.data
seen["skus"] = {"status": r.status_code, "codes": [s.sku_code for s in skus]}
seen["available_before"] = next(s.available for s in skus if s.sku_code == SKU)
seen["rate_headers"] = all(h in r.headers for h in ("x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"))

# Our product id linked to the SKU; an unknown SKU refused on its own row.
r = link_skus.sync_detailed(
    client=client,
    body=IntegratorLinksInput(
        links=[
            IntegratorLinkInput(external_id=f"woo-{RUN}", sku_code=SKU),
            IntegratorLinkInput(external_id="woo-nope", sku_code="NO-SUCH-SKU"),
        ]
    ),
)
seen["links"] = [{"external_id": x.external_id, "linked": x.sku_id > 0, "error": x.error} for x in r.parsed.data]

# An order, then the same again (by its key, then by its reference), then another body
# under the same key and under the same reference.
r = create_order.sync_detailed(client=client, body=order(f"WEB-{RUN}-1"), idempotency_key=f"{RUN}-try-1")
first = r.parsed
seen["created"] = {"status": r.status_code, "state": first.state, "payment": first.payment_state, "total": first.total_satang,
                   "lines": [(l.sku_code, l.quantity, l.external_id) for l in first.lines]}
r = create_order.sync_detailed(client=client, body=order(f"WEB-{RUN}-1"), idempotency_key=f"{RUN}-try-1")
# The first answer (made from what was written) is the order as it is read back.
def kept(o):
    return {k: v for k, v in o.to_dict().items() if k != "updated_at"}


seen["repeat_by_key"] = {"status": r.status_code, "same": r.parsed.id == first.id, "replayed": r.headers.get("idempotent-replayed"),
                         "as_read": kept(r.parsed) == kept(first)}
r = create_order.sync_detailed(client=client, body=order(f"WEB-{RUN}-1"))
seen["repeat_by_reference"] = {"status": r.status_code, "same": r.parsed.id == first.id}
r = create_order.sync_detailed(client=client, body=order(f"WEB-{RUN}-1", quantity=3), idempotency_key=f"{RUN}-try-1")
seen["key_reused"] = {"status": r.status_code, "code": body(r)["error"]["code"]}
r = create_order.sync_detailed(client=client, body=order(f"WEB-{RUN}-1", quantity=3))
seen["reference_reused"] = {"status": r.status_code, "code": body(r)["error"]["code"]}

# A wrong order is refused field by field.
bad = order(f"WEB-{RUN}-bad")
bad.address.postcode = "12"
bad.lines[0].sku_code = "NO-SUCH-SKU"
r = create_order.sync_detailed(client=client, body=bad)
seen["refused"] = {"status": r.status_code, "fields": [f["field"] for f in body(r)["error"]["fields"]]}
bad = order(f"WEB-{RUN}-bad2")
bad.lines[0].sku_code = "NO-SUCH-SKU"
r = create_order.sync_detailed(client=client, body=bad)
seen["unknown_sku"] = {"status": r.status_code, "fields": [f["field"] + ":" + f["code"] for f in body(r)["error"]["fields"]]}

# A second order, then the orders a page of one at a time.
r = create_order.sync_detailed(client=client, body=order(f"WEB-{RUN}-2", quantity=1))
second = r.parsed
pages, cursor = [], None
while True:
    kwargs = {"limit": 1}
    if cursor:
        kwargs["cursor"] = cursor
    r = list_orders.sync_detailed(client=client, **kwargs)
    pages.append([o.reference for o in r.parsed.data])
    cursor = r.parsed.next_cursor
    if not cursor or len(pages) > 5:
        break
seen["pages"] = pages

r = get_order.sync_detailed(client=client, id=first.id)
seen["read"] = {"status": r.status_code, "reference": r.parsed.reference}

# The linked SKU's stock as the channel is told it.
r = list_stock.sync_detailed(client=client)
seen["stock"] = [(s.external_id, s.sku_code, s.available) for s in r.parsed.data]

# The second cancelled while it waits; cancelled again, refused.
r = cancel_order.sync_detailed(client=client, id=second.id, body=CancelInput(reason="The buyer cancelled on our site"))
seen["cancelled"] = {"status": r.status_code, "state": r.parsed.state}
r = cancel_order.sync_detailed(client=client, id=second.id, body=CancelInput(reason="Again"))
seen["cancelled_again"] = {"status": r.status_code, "code": body(r)["error"]["code"]}

# Another store's key sees none of it; a made-up key is refused.
other = AuthenticatedClient(base_url=BASE, token=OTHER, raise_on_unexpected_status=False)
r = get_order.sync_detailed(client=other, id=first.id)
seen["other_store"] = {"status": r.status_code, "code": body(r)["error"]["code"]}
nobody = AuthenticatedClient(base_url=BASE, token="bok_0000000000000000_" + "0" * 64, raise_on_unexpected_status=False)
r = list_orders.sync_detailed(client=nobody)
seen["wrong_key"] = {"status": r.status_code, "code": body(r)["error"]["code"]}

# Past the key's budget: 429 with Retry-After.
limited = None
for _ in range(500):
    r = list_stock.sync_detailed(client=client)
    if r.status_code == 429:
        limited = {"status": r.status_code, "retry_after": r.headers.get("retry-after"), "code": body(r)["error"]["code"],
                   "remaining": r.headers.get("x-ratelimit-remaining")}
        break
seen["limited"] = limited

json.dump(seen, sys.stdout, ensure_ascii=False)
