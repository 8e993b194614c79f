//! The forms as a browser receives them: the fields, dialogs and scripts a flow relies on.

mod common;

use common::{Browser, config, start};

#[tokio::test]
async fn the_daily_form_has_its_fields_and_scripts() {
    let portal = start(config());
    let mut browser = Browser::new(&portal);
    browser.log_in().await;
    let page = browser.text("/claim/daily").await;
    for needle in [
        "name=\"applicant\" value=\"李四\" readonly",
        "name=\"staff_no\" value=\"200001\" readonly",
        "name=\"claim_date\" class=\"date-input\" readonly",
        "name=\"inv_date[]\" class=\"date-input\" readonly",
        "<input type=\"file\" name=\"files\" id=\"files\" multiple accept=\".pdf,.ofd,.xml\">",
        ">添加一行</button>",
        ">提交</button>",
        "<template id=\"rowTemplate\">",
    ] {
        assert!(page.contains(needle), "{needle}");
    }
    let script = browser.text("/static/claim-form.js").await;
    assert!(script.contains("confirm('确认提交该报销单吗？')"));
    assert!(script.contains("alert(body.message)"));
    assert!(script.contains("result.className = 'result'"));
    let picker = browser.text("/static/datepicker.js").await;
    assert!(picker.contains("new Event('change'"));
}

#[tokio::test]
async fn the_travel_form_and_the_empty_list() {
    let portal = start(config());
    let mut browser = Browser::new(&portal);
    browser.log_in().await;
    let page = browser.text("/claim/travel").await;
    for needle in [
        "name=\"start_date\"",
        "name=\"end_date\"",
        "name=\"category[]\"",
        "住宿费",
    ] {
        assert!(page.contains(needle), "{needle}");
    }
    assert!(browser.text("/claims/mine").await.contains("暂无单据"));
    assert_eq!(browser.get("/static/portal.css").await.status(), 200);
    assert_eq!(browser.get("/static/nothing.js").await.status(), 404);
}
