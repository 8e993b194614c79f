//! GET /api/data: the invoice table as JSON rows with `__row`, and what the claims ledger
//! knows of its invoices (`ledger`: our addition).

use crate::{ApiError, AppState};
use actix_web::{HttpResponse, web};
use serde_json::{Map, Value};

pub(crate) async fn read(
    state: web::Data<AppState>,
    session_id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let session = state.store.session(&session_id)?;
    let ledger = state.finance.ledger.clone();
    let (table, marks) = web::block(move || {
        let name = session.table_file_name()?.ok_or(ApiError::NoTable)?;
        let table = session.read_table(&name).map_err(ApiError::from)?;
        // What the claims ledger knows of these invoices: the page marks the rows.
        let marks = ledger
            .map(|ledger| pipeline::ledger_marks(&session, &table, &ledger))
            .unwrap_or_default();
        Ok::<_, ApiError>((table, marks))
    })
    .await??;
    let data: Vec<Value> = table
        .rows
        .iter()
        .enumerate()
        .map(|(index, row)| {
            let mut object: Map<String, Value> = table
                .fields
                .iter()
                .zip(row)
                .map(|(field, cell)| (field.clone(), Value::String(cell.clone())))
                .collect();
            object.insert("__row".into(), Value::from(index));
            Value::Object(object)
        })
        .collect();
    Ok(HttpResponse::Ok().json(serde_json::json!({
        "csv_filename": table.file_name,
        "fields": table.fields,
        "data": data,
        "ledger": marks,
    })))
}
