//! The web table in a real browser: headless Chromium driven through ChromeDriver. The browser
//! and its driver are Debian's; tests/browser/install-chromium.sh installs them when missing.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing, reason = "a test fails loudly by design")]

mod common;

use common::serve::{Server, root};
use fantoccini::{Client, ClientBuilder, Locator};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// ChromeDriver on a free port, with Chromium installed if it is not; stopped when dropped.
struct Driver {
    child: Child,
    port: u16,
}

impl Driver {
    fn start() -> Driver {
        if !std::path::Path::new("/usr/bin/chromedriver").exists() {
            let status = Command::new(root().join("tests/browser/install-chromium.sh")).status().expect("run install-chromium.sh");
            assert!(status.success(), "the browser tests need Chromium and ChromeDriver: tests/browser/install-chromium.sh failed");
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let child = Command::new("/usr/bin/chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        // Ready when it listens.
        for _ in 0..100 {
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Driver { child, port }
    }

    async fn browser(&self) -> Client {
        let mut caps = serde_json::Map::new();
        let profile = std::env::temp_dir().join(format!("arbiter-chromium-{}-{}", std::process::id(), self.port));
        caps.insert(
            "goog:chromeOptions".into(),
            serde_json::json!({
                "binary": "/usr/bin/chromium",
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    "--window-size=1280,900", format!("--user-data-dir={}", profile.display()),
                ],
            }),
        );
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        ClientBuilder::new(connector)
            .capabilities(caps)
            .connect(&format!("http://127.0.0.1:{}", self.port))
            .await
            .expect("a browser session")
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn run<F: std::future::Future<Output = ()>>(f: F) {
    tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap().block_on(f);
}

/// Wait until `css` finds an element, and return it.
async fn wait_for(c: &Client, css: &str) -> fantoccini::elements::Element {
    c.wait().at_most(Duration::from_secs(20)).for_element(Locator::Css(css)).await.unwrap_or_else(|e| panic!("`{css}` never appeared: {e}"))
}

#[test]
fn tic_tac_toe_is_played_in_the_browser_against_a_bot() {
    let server = Server::start();
    let driver = Driver::start();
    run(async {
        let c = driver.browser().await;
        c.goto(&format!("{}/", server.url)).await.unwrap();
        wait_for(&c, "#game option[value='tic-tac-toe']").await;
        c.find(Locator::Css("#game")).await.unwrap().select_by_value("tic-tac-toe").await.unwrap();
        wait_for(&c, ".seat-kind[data-seat='2']").await;
        c.find(Locator::Css(".seat-kind[data-seat='2']")).await.unwrap().select_by_value("random").await.unwrap();
        c.find(Locator::Css("#start")).await.unwrap().click().await.unwrap();
        // Click the first square offered until the game is over.
        let mut clicks = 0;
        loop {
            let result = c.find(Locator::Css("#result")).await.unwrap().text().await.unwrap();
            if result.starts_with("result") {
                assert!(result.contains("P1") || result.contains("draw"), "{result}");
                break;
            }
            let square = wait_for(&c, "#decision .option").await;
            square.click().await.unwrap();
            clicks += 1;
            assert!(clicks <= 5, "tic-tac-toe ends within five of P1's moves");
            // The page has taken the answer in when the log has grown or the game is over.
            tokio::time::sleep(Duration::from_millis(150)).await;
        }
        let shot = c.screenshot().await.unwrap();
        std::fs::write(std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("web-tic-tac-toe.png"), shot).unwrap();
        let log = c.find(Locator::Css("#events")).await.unwrap().text().await.unwrap();
        assert!(log.contains("P2"), "the bot's moves are in the log: {log}");
        c.close().await.unwrap();
    });
}
