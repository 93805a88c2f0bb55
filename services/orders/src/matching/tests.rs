use super::*;

const HOUR: i64 = 3_600_000;
const T0: i64 = 1_795_626_000_000;

fn bill(id: i64, order_no: &str, name: &str, amount: i64, created: i64) -> OpenBill {
    OpenBill {
        bill_id: id,
        order_id: id * 10,
        order_no: order_no.into(),
        name: name.into(),
        amount,
        created_ms: created,
        payment_state: "unpaid".into(),
        ..Default::default()
    }
}

fn line(row: usize, at: i64, amount: i64, text: &str) -> Line {
    Line { row, at_ms: at, day_only: false, amount, text: text.into(), tracking: String::new() }
}

fn run(lines: &[Line], bills: &[OpenBill]) -> Vec<Match> {
    let prints = fingerprints(Kind::Bank, lines);
    match_lines(Kind::Bank, lines, &prints, bills, &HashMap::new())
}

fn codes(m: &Match) -> Vec<&'static str> {
    m.reasons.iter().map(|r| r.code).collect()
}

#[test]
fn one_bill_of_the_amount_in_time_is_confident() {
    let bills = [bill(1, "SO2569-000001", "สมชาย ใจดี", 73_800, T0), bill(2, "SO2569-000002", "มานี มีนา", 19_050, T0)];
    let m = run(&[line(3, T0 + HOUR, 73_800, "รับโอนเงิน")], &bills);
    assert_eq!(m[0].status, Status::Confident);
    assert_eq!(m[0].bill_id, Some(1));
    assert_eq!(codes(&m[0]), vec!["amount_in_time"]);
    assert_eq!(m[0].reasons[0].values, vec![("amount", "738.00".to_string())]);
    // The name in the text is said too.
    let m = run(&[line(3, T0 + HOUR, 73_800, "จาก นาย สมชาย ใจดี")], &bills);
    assert_eq!(codes(&m[0]), vec!["amount_in_time", "name"]);
}

#[test]
fn the_order_number_decides_between_bills_of_one_amount() {
    let bills = [
        bill(1, "SO2569-000001", "สมชาย", 50_000, T0),
        bill(2, "SO2569-000002", "มานี", 50_000, T0 + HOUR),
        bill(3, "SO2569-000003", "ปิติ", 50_000, T0 + 2 * HOUR),
    ];
    let m = run(&[line(2, T0 + 3 * HOUR, 50_000, "โอนค่าสินค้า so2569 000002")], &bills);
    assert_eq!((m[0].status, m[0].bill_id), (Status::Confident, Some(2)));
    assert_eq!(codes(&m[0]), vec!["one_of_many", "order_no"]);
    // Nothing names one: ambiguous, every rival listed.
    let m = run(&[line(2, T0 + 3 * HOUR, 50_000, "รับโอนเงิน")], &bills);
    assert_eq!(m[0].status, Status::Ambiguous);
    assert_eq!(codes(&m[0]), vec!["many_bills"]);
    assert_eq!(m[0].candidates.iter().map(|c| c.bill_id).collect::<Vec<_>>(), vec![1, 2, 3]);
    // A name decides when no number does; a slip near the time too.
    let m = run(&[line(2, T0 + 3 * HOUR, 50_000, "จาก น.ส. มานี")], &bills);
    assert_eq!((m[0].status, m[0].bill_id), (Status::Confident, Some(2)));
    let mut slipped = bills.clone();
    slipped[2].payment_state = "pending".into();
    slipped[2].slip_at = T0 + 3 * HOUR - 60_000;
    let m = run(&[line(2, T0 + 3 * HOUR, 50_000, "")], &slipped);
    assert_eq!((m[0].status, m[0].bill_id), (Status::Confident, Some(3)));
    assert_eq!(codes(&m[0]), vec!["one_of_many", "slip"]);
    // Two names: still ambiguous.
    let m = run(&[line(2, T0 + 3 * HOUR, 50_000, "มานี และ ปิติ")], &bills);
    assert_eq!(m[0].status, Status::Ambiguous);
}

#[test]
fn unmatched_lines_say_why() {
    let bills = [bill(1, "SO2569-000001", "สมชาย", 73_800, T0)];
    let m = run(&[line(2, T0 + HOUR, 12_300, "")], &bills);
    assert_eq!((m[0].status, codes(&m[0])), (Status::Unmatched, vec!["no_bill_of_amount"]));
    assert_eq!(m[0].reasons[0].values, vec![("amount", "123.00".to_string())]);
    // Before the bill was made (beyond ten minutes), or long after.
    let m = run(&[line(2, T0 - HOUR, 73_800, "")], &bills);
    assert_eq!(codes(&m[0]), vec!["bill_made_after"]);
    let m = run(&[line(2, T0 + WINDOW_MS + HOUR, 73_800, "")], &bills);
    assert_eq!(codes(&m[0]), vec!["bill_too_old"]);
    // Five minutes early is a clock's difference.
    let m = run(&[line(2, T0 - 5 * 60_000, 73_800, "")], &bills);
    assert_eq!(m[0].status, Status::Confident);
    // The text names an order that costs something else.
    let m = run(&[line(2, T0 + HOUR, 70_000, "SO2569-000001")], &bills);
    assert_eq!(codes(&m[0]), vec!["named_other_amount"]);
    assert_eq!(m[0].reasons[0].values[1], ("bill", "738.00".to_string()));
    // A day without a time counts the whole day.
    let mut day = line(2, T0 - 7 * HOUR, 73_800, "");
    day.day_only = true;
    assert_eq!(run(&[day], &bills)[0].status, Status::Confident);
}

#[test]
fn two_lines_sure_of_one_bill_are_not() {
    let bills = [bill(1, "SO2569-000001", "สมชาย", 73_800, T0)];
    let m = run(&[line(2, T0 + HOUR, 73_800, ""), line(5, T0 + 2 * HOUR, 73_800, "")], &bills);
    assert!(m.iter().all(|m| m.status == Status::Ambiguous && m.bill_id.is_none()));
    assert_eq!(codes(&m[0]), vec!["same_bill"]);
    assert_eq!(m[0].reasons[0].values[1], ("rows", "2, 5".to_string()));
}

#[test]
fn a_line_used_before_is_known_again() {
    let bills = [bill(1, "SO2569-000001", "สมชาย", 73_800, T0)];
    let lines = [line(2, T0 + HOUR, 73_800, "x"), line(3, T0 + HOUR, 73_800, "x")];
    let prints = fingerprints(Kind::Bank, &lines);
    assert_ne!(prints[0], prints[1], "the same money twice are two lines");
    assert_eq!(prints, fingerprints(Kind::Bank, &lines), "and stay the same in the next upload");
    let used: HashMap<String, String> = [(prints[0].clone(), "SO2569-000001".to_string())].into();
    let m = match_lines(Kind::Bank, &lines, &prints, &bills, &used);
    assert_eq!((m[0].status, codes(&m[0])), (Status::Used, vec!["used"]));
    assert_eq!((m[1].status, m[1].bill_id), (Status::Confident, Some(1)));
}

#[test]
fn cod_lines_match_by_tracking_once_shipped() {
    let mut b = bill(1, "SO2569-000001", "สมชาย", 73_800, T0);
    b.cod = true;
    b.tracking = "TH0123456789A".into();
    b.shipped = true;
    let mut other = bill(2, "SO2569-000002", "มานี", 73_800, T0);
    other.cod = true;
    other.tracking = "TH999".into();
    let cod = |tracking: &str, amount: i64| Line {
        row: 2,
        at_ms: T0 + 48 * HOUR,
        day_only: true,
        amount,
        text: String::new(),
        tracking: tracking.into(),
    };
    let go = |l: Line, bills: &[OpenBill]| {
        let prints = fingerprints(Kind::Cod, std::slice::from_ref(&l));
        match_lines(Kind::Cod, &[l], &prints, bills, &HashMap::new()).remove(0)
    };
    let m = go(cod("th 0123456789 a", 73_800), &[b.clone(), other.clone()]);
    assert_eq!((m.status, m.bill_id, codes(&m)), (Status::Confident, Some(1), vec!["tracking"]));
    assert_eq!(codes(&go(cod("TH0123456789A", 70_000), &[b.clone()])), vec!["named_other_amount"]);
    assert_eq!(codes(&go(cod("TH999", 73_800), &[other])), vec!["cod_not_shipped"]);
    assert_eq!(codes(&go(cod("NOPE", 73_800), &[b.clone()])), vec!["no_parcel"]);
    // A bank transfer never pays a COD bill.
    assert_eq!(run(&[line(2, T0 + HOUR, 73_800, "")], &[b])[0].status, Status::Unmatched);
}

/// One month's transfers as the bank's CSV and as its XLSX: other columns, other words,
/// seconds in one and not the other, the rows in another order. Each transfer has one
/// fingerprint, so a transfer confirms one bill whichever file is uploaded.
#[test]
fn one_transfer_in_two_formats_is_one_line() {
    let csv = "\u{FEFF}วันที่,เวลา,รายการ,ถอนเงิน,ฝากเงิน,ยอดคงเหลือ,รายละเอียด\n\
               26/11/2569,09:15,รับโอนเงิน,,199.00,10199.00,จาก นาย สมชาย ใจดี\n\
               26/11/2569,09:15,รับโอนเงิน,,199.00,10398.00,จาก น.ส. มานี มีนา\n\
               26/11/2569,11:30,รับโอนเงิน,,\"1,250.50\",11648.50,PromptPay\n";
    let mut wb = rust_xlsxwriter::Workbook::new();
    let ws = wb.add_worksheet();
    for (c, h) in ["Date", "Time", "Description", "Deposit", "Channel", "Sender"].iter().enumerate() {
        ws.write_string(0, c as u16, *h).unwrap();
    }
    let rows = [
        ("2026-11-26", "11:30:41", "Transfer in", 1250.5, "PROMPTPAY", "MR SOMSAK"),
        ("2026-11-26", "09:15:07", "Transfer in", 199.0, "K PLUS", "MS MANEE"),
        ("2026-11-26", "09:15:52", "Transfer in", 199.0, "K PLUS", "MR SOMCHAI"),
    ];
    for (r, (d, t, what, amount, channel, who)) in rows.iter().enumerate() {
        let r = r as u32 + 1;
        ws.write_string(r, 0, *d).unwrap();
        ws.write_string(r, 1, *t).unwrap();
        ws.write_string(r, 2, *what).unwrap();
        ws.write_number(r, 3, *amount).unwrap();
        ws.write_string(r, 4, *channel).unwrap();
        ws.write_string(r, 5, *who).unwrap();
    }
    let xlsx = wb.save_to_buffer().unwrap();
    let a = crate::statement::parse(csv.as_bytes()).unwrap();
    let b = crate::statement::parse(&xlsx).unwrap();
    assert_ne!(a.lines[0].text, b.lines[2].text, "the files say other things");
    let mut pa = fingerprints(a.kind, &a.lines);
    let mut pb = fingerprints(b.kind, &b.lines);
    assert_eq!(pa.len(), 3);
    pa.sort();
    pb.sort();
    assert_eq!(pa, pb, "the same three transfers");
    // Used by the CSV, the XLSX's lines are known as used.
    let bills = [bill(1, "SO2569-000001", "สมชาย", 19_900, T0)];
    let used: HashMap<String, String> = pa.iter().map(|p| (p.clone(), "SO2569-000001".to_string())).collect();
    let m = match_lines(b.kind, &b.lines, &fingerprints(b.kind, &b.lines), &bills, &used);
    assert!(m.iter().all(|m| m.status == Status::Used), "{m:?}");
    // Another minute, or another amount, is other money.
    let mut later = a.lines[0].clone();
    later.at_ms += 60_000;
    assert_ne!(fingerprints(a.kind, &[later])[0], fingerprints(a.kind, &a.lines[..1])[0]);
}

/// A month-end statement against thousands of bills of one price: a line lists a few of its
/// candidates (the named ones first, then the newest), says how many there were, and the
/// whole answer stays bounded.
#[test]
fn many_bills_of_one_amount_list_a_few_candidates() {
    let bills: Vec<OpenBill> =
        (1..=3_000).map(|i| bill(i, &format!("SO2569-{i:06}"), "ลูกค้า", 19_900, T0 + i * 1_000)).collect();
    let lines: Vec<Line> = (0..400).map(|r| line(r + 2, T0 + 2 * HOUR, 19_900, "รับโอนเงิน")).collect();
    let m = run(&lines, &bills);
    assert!(m.iter().all(|m| m.status == Status::Ambiguous));
    assert_eq!(m[0].reasons[0].values[1], ("count", "3000".to_string()));
    assert_eq!(m[0].candidates.len(), CANDIDATES_PER_LINE);
    assert_eq!(m[0].candidates.last().map(|c| c.bill_id), Some(3_000), "the newest");
    let listed: usize = m.iter().map(|m| m.candidates.len()).sum();
    assert_eq!(listed, CANDIDATES_IN_ALL, "the answer is bounded");
    // A choice beyond those listed is still one of the line's candidates.
    assert!(may_pay(Kind::Bank, &lines[0], &bills[5]));
    let mut other = bills[5].clone();
    other.amount = 20_000;
    assert!(!may_pay(Kind::Bank, &lines[0], &other));
    // A first name every buyer shares names them all: still ambiguous, still a few listed.
    let shared = run(&[line(2, T0 + 2 * HOUR, 19_900, "จาก ลูกค้า คนหนึ่ง")], &bills);
    assert_eq!((shared[0].status, shared[0].candidates.len()), (Status::Ambiguous, CANDIDATES_PER_LINE));
    assert!(shared[0].candidates.iter().all(|c| c.evidence.iter().any(|e| e.code == "name")));
    // One named among them is confident, found by its number in the text.
    let named = run(&[line(2, T0 + 2 * HOUR, 19_900, "ชำระ SO2569-001234")], &bills);
    assert_eq!((named[0].status, named[0].bill_id), (Status::Confident, Some(1_234)));
}
