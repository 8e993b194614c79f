//! GET /api/data: the invoice table as JSON rows with `__row`.

use crate::{ApiError, AppState};
use actix_web::{HttpResponse, web};
use serde_json::{Map, Value};

pub(crate) async fn read(
    state: web::Data<AppState>,
    session_id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let session = state.store.session(&session_id)?;
    let table = web::block(move || {
        let name = session.table_file_name()?.ok_or(ApiError::NoTable)?;
        session.read_table(&name).map_err(ApiError::from)
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
    })))
}
