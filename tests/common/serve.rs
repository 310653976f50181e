//! `arbiter serve` started for a test, and requests to it.

use arbiter::web::Table;
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `arbiter serve` on a free port, stopped when dropped.
pub struct Server {
    child: Child,
    /// The saves folder made for this server when the test gave none (removed with it).
    own_saves: Option<PathBuf>,
    pub url: String,
    pub agent: ureq::Agent,
}

impl Server {
    pub fn start() -> Server {
        Server::start_with(&[])
    }

    /// `arbiter serve` with these arguments too (`--saves DIR`; without it, a folder of its own:
    /// a saves folder is one server's).
    pub fn start_with(extra: &[&str]) -> Server {
        use std::sync::atomic::{AtomicU32, Ordering};
        static MADE: AtomicU32 = AtomicU32::new(0);
        let own_saves = (!extra.contains(&"--saves"))
            .then(|| std::env::temp_dir().join(format!("arbiter-serve-{}-{}", std::process::id(), MADE.fetch_add(1, Ordering::Relaxed))));
        let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["serve", "--port", "0"])
            .args(extra)
            .args(own_saves.iter().flat_map(|d| [std::ffi::OsStr::new("--saves"), d.as_os_str()]))
            .current_dir(root())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start arbiter serve");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let url = line.split_whitespace().find(|w| w.starts_with("http://")).expect("the address").trim_end_matches('/').to_string();
        let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
        Server { child, own_saves, url, agent }
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Status and body of a request (`token` as the seat's secret).
    pub fn call(&self, method: &str, path: &str, body: Option<&str>, token: Option<&str>) -> (u16, String) {
        let url = format!("{}{path}", self.url);
        let mut resp = match (method, body) {
            ("GET", _) => {
                let mut r = self.agent.get(&url);
                if let Some(t) = token {
                    r = r.header("Authorization", &format!("Bearer {t}"));
                }
                r.call().unwrap()
            }
            ("DELETE", _) => {
                let mut r = self.agent.delete(&url);
                if let Some(t) = token {
                    r = r.header("Authorization", &format!("Bearer {t}"));
                }
                r.call().unwrap()
            }
            (_, b) => {
                let mut r = self.agent.post(&url).header("Content-Type", "application/json");
                if let Some(t) = token {
                    r = r.header("Authorization", &format!("Bearer {t}"));
                }
                r.send(b.unwrap_or("")).unwrap()
            }
        };
        (resp.status().as_u16(), resp.body_mut().read_to_string().unwrap())
    }

    pub fn json(&self, method: &str, path: &str, body: Option<Value>, token: Option<&str>) -> (u16, Value) {
        let text = body.map(|b| b.to_string());
        let (status, body) = self.call(method, path, text.as_deref(), token);
        (status, serde_json::from_str(&body).unwrap_or_else(|_| panic!("not JSON: {body}")))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if let Some(d) = &self.own_saves {
            let _ = std::fs::remove_dir_all(d);
        }
    }
}

/// The names of definitions that the full view shows and `seat`'s table and log do not: what
/// the seat must never be sent.
pub fn hidden_from(t: &Table, seat: u8) -> (Vec<String>, Vec<String>) {
    let (game, st) = t.rules_and_state();
    super::hidden_names(game, st, seat)
}

/// `body` with every allowed name blanked (longest first), then no hidden name may be left.
pub fn assert_nothing_hidden(body: &str, hidden: &[String], allowed: &[String], what: &str) {
    let mut rest = body.to_string();
    for a in allowed {
        rest = rest.replace(a.as_str(), "#");
    }
    for h in hidden {
        assert!(!rest.contains(h.as_str()), "{what} was sent `{h}`, which it may not see");
    }
}

/// How many times `mark` is drawn as a text on the table of picture `svg` (its legend left out).
pub fn marks_drawn(svg: &str, mark: &str) -> usize {
    svg.split("<g class=\"legend\">").next().unwrap_or_default().matches(&format!(">{mark}</text>")).count()
}
