//! POST /api/save: write the edited rows back, in array order, then report the document.

use super::process::current_config;
use crate::access::{Caller, defaults_for};
use crate::{ApiError, AppState};
use actix_web::{HttpResponse, web};
use domain::validate_stored_name;
use serde::Deserialize;
use serde_json::{Map, Value};
use session_store::{CsvTable, SUMMARY_CSV};
use std::collections::HashMap;

/// Most rows a save may carry: a claim has tens of invoices; this is far past any real one and
/// keeps a save (and the document LibreOffice renders from it) to seconds.
pub(crate) const MAX_SAVE_ROWS: usize = 2_000;
/// Longest cell, in characters.
pub(crate) const MAX_CELL_CHARS: usize = 2_000;
/// Most columns a row may carry (the 13 and any a user added).
pub(crate) const MAX_SAVE_COLUMNS: usize = 64;

#[derive(Debug, Deserialize)]
pub(crate) struct SaveRequest {
    #[serde(default)]
    csv_filename: String,
    data: Vec<Map<String, Value>>,
}

pub(crate) async fn save(
    state: web::Data<AppState>,
    caller: Caller,
    session_id: web::Path<String>,
    body: web::Json<SaveRequest>,
) -> Result<HttpResponse, ApiError> {
    let session = state.store.session(&session_id)?;
    if state.jobs.is_busy(session.id()) {
        return Err(ApiError::Busy);
    }
    let SaveRequest { csv_filename, data } = body.into_inner();
    if data.len() > MAX_SAVE_ROWS {
        return Err(ApiError::BadRequest(format!(
            "表格行数 {} 超过上限（{MAX_SAVE_ROWS} 行）",
            data.len()
        )));
    }
    let rows = data
        .iter()
        .enumerate()
        .map(|(index, row)| row_cells(index, row))
        .collect::<Result<Vec<_>, _>>()?;
    let defaults = defaults_for(&state, &caller).await;
    let documents = state.documents.clone();
    let report = web::block(move || {
        let file_name = if csv_filename.is_empty() {
            session
                .table_file_name()?
                .unwrap_or_else(|| SUMMARY_CSV.to_owned())
        } else {
            csv_filename
        };
        if validate_stored_name(&file_name).is_err()
            || !file_name.to_ascii_lowercase().ends_with(".csv")
        {
            return Err(ApiError::BadRequest(
                "csv_filename 必须是本会话中的 .csv 文件名".into(),
            ));
        }
        // Columns a user added by hand to the file survive an edit made in the page.
        let extra = match session.read_table(&file_name) {
            Ok(existing) => existing.extra_fields().to_vec(),
            Err(_) => Vec::new(),
        };
        let table = CsvTable::from_keyed_rows(&file_name, &extra, &rows);
        session.write_table(&table)?;
        let _ = session.log(
            "INFO",
            "pipeline",
            &format!("已保存 {file_name}（{} 行）", rows.len()),
        );
        // The document follows the table just written, with the session's configuration
        // (consumable_storage and the claimant).
        let config = current_config(&session, defaults);
        Ok::<_, ApiError>(pipeline::regenerate_document(
            &session, &table, &config, &documents,
        ))
    })
    .await??;
    let mut response = Map::new();
    response.insert("ok".into(), Value::Bool(true));
    response.extend(report.outcome.fields());
    response.extend(report.package.fields());
    response.insert("travel_count".into(), Value::from(report.travel_count));
    response.insert("general_count".into(), Value::from(report.general_count));
    Ok(HttpResponse::Ok().json(Value::Object(response)))
}

/// A row's cells as strings. Numbers and booleans are taken as their text and null as "", so a
/// client that sends `1` for 序号 is not refused; nested values are refused.
fn row_cells(index: usize, row: &Map<String, Value>) -> Result<HashMap<String, String>, ApiError> {
    if row.len() > MAX_SAVE_COLUMNS {
        return Err(ApiError::BadRequest(format!(
            "第 {} 行的列数超过上限（{MAX_SAVE_COLUMNS} 列）",
            index + 1
        )));
    }
    let mut cells = HashMap::new();
    for (key, value) in row {
        if key == "__row" {
            continue;
        }
        let text = match value {
            Value::String(text) => text.clone(),
            Value::Null => String::new(),
            Value::Number(number) => number.to_string(),
            Value::Bool(flag) => flag.to_string(),
            Value::Array(_) | Value::Object(_) => {
                return Err(ApiError::BadRequest(format!(
                    "第 {} 行的「{key}」必须是字符串",
                    index + 1
                )));
            }
        };
        if text.chars().count() > MAX_CELL_CHARS || key.chars().count() > MAX_CELL_CHARS {
            return Err(ApiError::BadRequest(format!(
                "第 {} 行的「{}」超过 {MAX_CELL_CHARS} 个字符",
                index + 1,
                key.chars().take(20).collect::<String>()
            )));
        }
        cells.insert(key.clone(), text);
    }
    Ok(cells)
}
