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

/// Whether Chromium and ChromeDriver are installed: installed once for all the tests of this file,
/// which start together (two installs at once fight over the package manager's lock, and the
/// second fails).
static INSTALLED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();

impl Driver {
    fn start() -> Driver {
        let installed = *INSTALLED.get_or_init(|| {
            let there = |p: &str| std::path::Path::new(p).exists();
            (there("/usr/bin/chromedriver") && there("/usr/bin/chromium"))
                || Command::new(root().join("tests/browser/install-chromium.sh")).status().is_ok_and(|s| s.success())
        });
        assert!(installed, "the browser tests need Chromium and ChromeDriver: tests/browser/install-chromium.sh failed");
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

    /// The browser's profile folder, one per driver, removed when the driver is dropped.
    fn profile(&self) -> std::path::PathBuf {
        std::env::temp_dir().join(format!("arbiter-chromium-{}-{}", std::process::id(), self.port))
    }

    async fn browser(&self) -> Client {
        let mut caps = serde_json::Map::new();
        let profile = self.profile();
        caps.insert(
            "goog:chromeOptions".into(),
            serde_json::json!({
                "binary": "/usr/bin/chromium",
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    "--window-size=1280,1000", format!("--user-data-dir={}", profile.display()),
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
        // The browser has gone with its driver; its profile (tens of megabytes) goes too.
        let _ = std::fs::remove_dir_all(self.profile());
    }
}

fn run<F: std::future::Future<Output = ()>>(f: F) {
    tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap().block_on(f);
}

/// Wait until `css` finds an element, and return it.
async fn wait_for(c: &Client, css: &str) -> fantoccini::elements::Element {
    c.wait().at_most(Duration::from_secs(20)).for_element(Locator::Css(css)).await.unwrap_or_else(|e| panic!("`{css}` never appeared: {e}"))
}

/// Wait until the select `css` offers `value`, then pick it.
async fn pick(c: &Client, css: &str, value: &str) {
    wait_for(c, &format!("{css} option[value='{value}']")).await;
    c.find(Locator::Css(css)).await.unwrap().select_by_value(value).await.unwrap();
}

/// Open the page and start `game` with the seed given, P1 played here and P2 by the random bot.
async fn start_against_random(c: &Client, server: &Server, game: &str, seed: u64) {
    c.goto(&format!("{}/", server.url)).await.unwrap();
    pick(c, "#game", game).await;
    c.execute(&format!("document.getElementById('seed').value = '{seed}'"), vec![]).await.unwrap();
    pick(c, ".seat-kind[data-seat='2']", "random").await;
    c.find(Locator::Css("#start")).await.unwrap().click().await.unwrap();
}

#[test]
fn tic_tac_toe_is_played_in_the_browser_against_a_bot() {
    let server = Server::start();
    let driver = Driver::start();
    run(async {
        let c = driver.browser().await;
        start_against_random(&c, &server, "tic-tac-toe", 1).await;
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
        std::fs::write(screenshot_path("web-tic-tac-toe-won.png"), shot).unwrap();
        let log = c.find(Locator::Css("#events")).await.unwrap().text().await.unwrap();
        assert!(log.contains("P2"), "the bot's moves are in the log: {log}");
        c.close().await.unwrap();
    });
}

/// A searching bot moves first: the page says it is thinking, asks again by itself, and offers
/// P2's decision once the bot has moved, with no click.
#[test]
fn the_page_waits_for_a_thinking_bot_and_goes_on_by_itself() {
    let server = Server::start_with(&["--think", "1"]);
    let driver = Driver::start();
    run(async {
        let c = driver.browser().await;
        c.goto(&format!("{}/", server.url)).await.unwrap();
        pick(&c, "#game", "tic-tac-toe").await;
        pick(&c, ".seat-kind[data-seat='1']", "mcts").await;
        pick(&c, ".seat-kind[data-seat='2']", "human").await;
        c.find(Locator::Css("#start")).await.unwrap().click().await.unwrap();
        // P2's squares are offered once the bot has marked one: eight are left.
        let square = wait_for(&c, "#decision .option").await;
        let offered = c.find_all(Locator::Css("#decision .option")).await.unwrap().len();
        assert_eq!(offered, 8, "the bot marked a square first");
        square.click().await.unwrap();
        c.close().await.unwrap();
    });
}

/// Where a screenshot goes: docs/screenshots/, for the README, when `ARBITER_UPDATE_SCREENSHOTS` is
/// set, else the build's scratch folder.
fn screenshot_path(name: &str) -> std::path::PathBuf {
    if std::env::var_os("ARBITER_UPDATE_SCREENSHOTS").is_some() {
        let dir = root().join("docs/screenshots");
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    } else {
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name)
    }
}

#[test]
fn a_card_game_seat_finds_no_hidden_card_of_the_other_seat_in_the_page_or_what_it_was_sent() {
    use arbiter::check::project::Project;
    use arbiter::web::{SeatKind, Table};
    use common::serve::{assert_nothing_hidden, hidden_from};
    let dir = std::env::temp_dir().join(format!("arbiter-browser-ccg-saves-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let server = Server::start_with(&["--saves", dir.to_str().unwrap()]);
    let driver = Driver::start();
    let seed = 5;
    let project = Project::find(&root());
    let mut reference = Table::start(&project, "bsg-ccg", &[], vec![SeatKind::Human, SeatKind::Bot("random".into())], seed).unwrap();
    run(async {
        let c = driver.browser().await;
        start_against_random(&c, &server, "bsg-ccg", seed).await;
        for step in 0..3 {
            wait_for(&c, "#decision button").await;
            let dom = c.source().await.unwrap();
            let sent = c.execute("return JSON.stringify(window.arbiterReceived)", vec![]).await.unwrap();
            let sent = sent.as_str().unwrap().to_string();
            let (hidden, allowed) = hidden_from(&reference, 0);
            assert!(!hidden.is_empty(), "P2's hand is hidden from P1");
            assert_nothing_hidden(&dom, &hidden, &allowed, &format!("the page at step {step}"));
            assert_nothing_hidden(&sent, &hidden, &allowed, &format!("the responses at step {step}"));
            assert!(dom.contains("<svg"), "the table is drawn");
            // Answer the first option, the same beside the server.
            let Ok(first) = c.find(Locator::Css("#decision .option")).await else { break };
            first.click().await.unwrap();
            reference.answer(0, vec![0]).unwrap();
            tokio::time::sleep(Duration::from_millis(400)).await;
        }
        // Saved and replayed from its start as P1: stepping through it shows P1's events and
        // tables only.
        wait_for(&c, "#decision button").await;
        c.find(Locator::Css("#save")).await.unwrap().click().await.unwrap();
        wait_for(&c, "#replay-save").await.click().await.unwrap();
        wait_for(&c, "#replay-picture svg").await;
        let status = c.find(Locator::Css("#replay-status")).await.unwrap().text().await.unwrap();
        assert!(status.starts_with("saved at turn "), "{status}");
        assert_eq!(c.find(Locator::Css("#replay-as")).await.unwrap().prop("value").await.unwrap().as_deref(), Some("1"));
        assert!(c.find(Locator::Css("#replay-why-button")).await.unwrap().attr("hidden").await.unwrap().is_some(), "no `why` as P1");
        let (hidden, allowed) = hidden_from(&reference, 0);
        for step in 0..6 {
            c.execute("const at = document.getElementById('replay-at'); at.value = Math.round(at.max * arguments[0] / 5); at.dispatchEvent(new Event('input'))", vec![serde_json::json!(step)]).await.unwrap();
            tokio::time::sleep(Duration::from_millis(200)).await;
            let dom = c.source().await.unwrap();
            let sent = c.execute("return JSON.stringify(window.arbiterReceived)", vec![]).await.unwrap();
            assert_nothing_hidden(&dom, &hidden, &allowed, &format!("the replay page at step {step}"));
            assert_nothing_hidden(sent.as_str().unwrap(), &hidden, &allowed, &format!("the replay's responses at step {step}"));
        }
        let event = c.find(Locator::Css("#replay-event")).await.unwrap().text().await.unwrap();
        assert!(event.contains("rule: "), "{event}");
        c.execute("document.getElementById('replay-setup').scrollIntoView()", vec![]).await.unwrap();
        std::fs::write(screenshot_path("web-replay-saved-game.png"), c.screenshot().await.unwrap()).unwrap();
        c.close().await.unwrap();
    });
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_scenario_is_replayed_in_the_browser_with_an_events_citation_and_why() {
    let server = Server::start();
    let driver = Driver::start();
    run(async {
        let c = driver.browser().await;
        c.goto(&format!("{}/", server.url)).await.unwrap();
        // The lists follow the game chosen above: no other game's file is offered.
        pick(&c, "#game", "tic-tac-toe").await;
        wait_for(&c, "#replay-file option[value='file:tests/rulings/tic-tac-toe/rules.arb']").await;
        let offered: Vec<String> = c
            .execute("return [...document.querySelectorAll('#replay-file option')].map(o => o.value)", vec![])
            .await
            .unwrap()
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect();
        assert!(offered.iter().all(|f| f.contains("/tic-tac-toe/")), "only tic-tac-toe's files: {offered:?}");
        pick(&c, "#replay-file", "file:tests/rulings/tic-tac-toe/rules.arb").await;
        c.find(Locator::Css("#replay-open")).await.unwrap().click().await.unwrap();
        pick(&c, "#replay-id", "ttt-diagonal").await;
        // Step forward until the win.
        let mut seen = String::new();
        for _ in 0..60 {
            seen = c.find(Locator::Css("#replay-event")).await.unwrap().text().await.unwrap();
            if seen.contains("game over") {
                break;
            }
            c.find(Locator::Css("#replay-next")).await.unwrap().click().await.unwrap();
        }
        assert!(seen.contains("game over: P1 wins"), "{seen}");
        assert!(seen.contains("L5-6") && seen.contains("Tic-tac-toe: winning, or a draw"), "the event's citation and section: {seen}");
        c.find(Locator::Css("#replay-why-button")).await.unwrap().click().await.unwrap();
        let mut why = String::new();
        for _ in 0..50 {
            why = c.find(Locator::Css("#replay-why")).await.unwrap().text().await.unwrap();
            if !why.is_empty() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert!(why.contains("turn.play") && why.contains("`three_in_a_row(p.symbol)` held"), "{why}");
        // A click on an event in the list shows it, with its chain of causes.
        let first = wait_for(&c, "#replay-events .row").await;
        first.click().await.unwrap();
        let mut clicked = (String::new(), String::new());
        for _ in 0..50 {
            clicked = (
                c.find(Locator::Css("#replay-event")).await.unwrap().text().await.unwrap(),
                c.find(Locator::Css("#replay-why")).await.unwrap().text().await.unwrap(),
            );
            if clicked.1.starts_with("#0 ") {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert!(clicked.0.starts_with("#0 ") && clicked.1.starts_with("#0 "), "event #0 and its causes: {clicked:?}");
        assert_eq!(c.find(Locator::Css("#replay-events .row.current")).await.unwrap().text().await.unwrap(), first.text().await.unwrap());
        // A Starship Battles example: its table drawn at the step shown.
        pick(&c, "#game", "starship-battles").await;
        pick(&c, "#replay-file", "file:tests/examples/starship-battles/SB-10.arb").await;
        c.find(Locator::Css("#replay-open")).await.unwrap().click().await.unwrap();
        // The new file is open once its scenarios are listed (the last file's picture is still up).
        wait_for(&c, "#replay-id option[value^='SB-10']").await;
        wait_for(&c, "#replay-picture svg").await;
        c.execute("const at = document.getElementById('replay-at'); at.value = at.max; at.dispatchEvent(new Event('input'))", vec![])
            .await
            .unwrap();
        c.find(Locator::Css("#replay-why-button")).await.unwrap().click().await.unwrap();
        tokio::time::sleep(Duration::from_millis(500)).await;
        c.execute("document.getElementById('replay').scrollIntoView()", vec![]).await.unwrap();
        let shot = c.screenshot().await.unwrap();
        std::fs::write(screenshot_path("web-replay-starship-battles.png"), shot).unwrap();
        c.close().await.unwrap();
    });
}

#[test]
fn the_other_games_tables_are_drawn_in_the_browser() {
    let server = Server::start();
    let driver = Driver::start();
    run(async {
        let c = driver.browser().await;
        for game in ["bsg-board", "starcraft"] {
            start_against_random(&c, &server, game, 2).await;
            wait_for(&c, "#picture svg").await;
            // A few decisions in, so that the picture shows a game under way.
            for _ in 0..4 {
                wait_for(&c, "#decision button").await.click().await.unwrap();
                tokio::time::sleep(Duration::from_millis(300)).await;
            }
            wait_for(&c, "#picture svg").await;
            let page = c.source().await.unwrap();
            assert!(page.contains("<svg") && page.contains("(you)"), "{game}: the table drawn for P1");
        }
        c.close().await.unwrap();
    });
}

#[test]
fn hot_seat_hands_the_page_from_one_seat_to_the_next() {
    let server = Server::start();
    let driver = Driver::start();
    run(async {
        let c = driver.browser().await;
        c.goto(&format!("{}/", server.url)).await.unwrap();
        pick(&c, "#game", "tic-tac-toe").await;
        pick(&c, ".seat-kind[data-seat='2']", "human").await;
        c.find(Locator::Css("#start")).await.unwrap().click().await.unwrap();
        wait_for(&c, "#decision .option").await.click().await.unwrap();
        // P1 has moved: the page offers to hand over to P2 and shows P1's table until then.
        let hand_over = wait_for(&c, "#hand-over").await;
        assert_eq!(hand_over.text().await.unwrap(), "Hand over to P2");
        assert!(c.find(Locator::Css("#subtitle")).await.unwrap().text().await.unwrap().ends_with("you are P1"));
        hand_over.click().await.unwrap();
        wait_for(&c, "#decision .option").await;
        assert!(c.find(Locator::Css("#subtitle")).await.unwrap().text().await.unwrap().ends_with("you are P2"));
        let active = c.find(Locator::Css("#seats-tabs button.active")).await.unwrap().text().await.unwrap();
        assert_eq!(active, "P2");
        let prompt = c.find(Locator::Css("#decision")).await.unwrap().text().await.unwrap();
        assert!(prompt.starts_with("P2: Mark an empty square"), "{prompt}");
        c.close().await.unwrap();
    });
}

#[test]
fn a_game_is_saved_and_resumed_from_the_page() {
    let dir = std::env::temp_dir().join(format!("arbiter-browser-saves-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let server = Server::start_with(&["--saves", dir.to_str().unwrap()]);
    let driver = Driver::start();
    run(async {
        let c = driver.browser().await;
        start_against_random(&c, &server, "tic-tac-toe", 4).await;
        wait_for(&c, "#decision .option").await.click().await.unwrap();
        wait_for(&c, "#decision .option").await;
        c.find(Locator::Css("#save")).await.unwrap().click().await.unwrap();
        let mut said = String::new();
        for _ in 0..50 {
            said = c.find(Locator::Css("#saved-as")).await.unwrap().text().await.unwrap();
            if !said.is_empty() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert!(said.starts_with("saved as tic-tac-toe-"), "{said}");
        let name = said.trim_start_matches("saved as ").split_whitespace().next().unwrap().to_string();
        assert!(dir.join(&name).is_file());
        // The download link holds the picture as the page was sent it.
        let href = c.find(Locator::Css("#export")).await.unwrap().attr("href").await.unwrap().unwrap_or_default();
        assert!(href.starts_with("blob:"), "{href}");
        // The start form, folded while a game is on, offers the save to resume.
        c.find(Locator::Css("#start-panel > summary")).await.unwrap().click().await.unwrap();
        pick(&c, "#saved", &name).await;
        c.find(Locator::Css("#resume")).await.unwrap().click().await.unwrap();
        wait_for(&c, "#decision .option").await;
        let picture = c.find(Locator::Css("#picture")).await.unwrap().html(true).await.unwrap();
        assert_eq!(common::serve::marks_drawn(&picture, "X"), 1, "the resumed game has P1's one mark: {picture}");
        c.close().await.unwrap();
    });
    let _ = std::fs::remove_dir_all(&dir);
}

/// What the page measures of itself: whether it scrolls, where the decision and the table sit,
/// and the smallest label of the table in CSS pixels.
const MEASURE: &str = r#"
const box = (id) => { const r = document.getElementById(id).getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
const svg = document.querySelector('#picture svg');
const vb = svg.viewBox.baseVal;
const scale = svg.getBoundingClientRect().width / vb.width;
let smallest = 1e9, label = '';
for (const t of svg.querySelectorAll('text')) {
  const size = parseFloat(getComputedStyle(t).fontSize) * scale;
  if (t.textContent.trim() && size < smallest) { smallest = size; label = t.textContent; }
}
return { w: innerWidth, h: innerHeight, scrolls: document.documentElement.scrollHeight > innerHeight + 1 || scrollY > 0,
  play: box('play'), decision: box('decision'), picture: box('picture'), smallest, label, path: location.pathname + location.search };
"#;

/// Every game, opened by a link (`/play/GAME?players=N&seat=1`), at 1400×900 and on a laptop's
/// 1024×768: the decision and the table are both in view without scrolling the page, and no label
/// of the table is drawn under 11 CSS pixels. The table's own link (`/table/ID?seat=1`) opens the
/// seat again in this browser, and in a browser without its secret shows nothing of it.
#[test]
fn every_game_reads_beside_its_decision_at_two_screen_sizes() {
    let server = Server::start();
    let driver = Driver::start();
    run(async {
        let c = driver.browser().await;
        let games = [("tic-tac-toe", 2), ("connect-four", 2), ("bsg-ccg", 2), ("bsg-board", 3), ("starcraft", 2), ("starship-battles", 2)];
        for (w, h) in [(1400u32, 900u32), (1024, 768)] {
            c.set_window_size(w, h).await.unwrap();
            for (game, players) in games {
                c.goto(&format!("{}/play/{game}?players={players}&seat=1", server.url)).await.unwrap();
                wait_for(&c, "#decision .prompt").await;
                // A few decisions in, so that the table is under way.
                for _ in 0..3 {
                    let Ok(b) = c.find(Locator::Css("#decision button")).await else { break };
                    b.click().await.unwrap();
                    tokio::time::sleep(Duration::from_millis(250)).await;
                }
                wait_for(&c, "#picture svg").await;
                tokio::time::sleep(Duration::from_millis(200)).await;
                let m = c.execute(MEASURE, vec![]).await.unwrap();
                let what = format!("{game} at {w}×{h}: {m}");
                let num = |v: &serde_json::Value| v.as_f64().unwrap();
                let (vw, vh) = (num(&m["w"]), num(&m["h"]));
                assert!(!m["scrolls"].as_bool().unwrap(), "the page scrolls: {what}");
                for (part, min_w, min_h) in [("play", 250.0, 60.0), ("picture", 300.0, 200.0)] {
                    let r: Vec<f64> = m[part].as_array().unwrap().iter().map(num).collect();
                    assert!(r[0] >= 0.0 && r[1] >= 0.0 && r[2] <= vw + 0.5 && r[3] <= vh + 0.5, "`#{part}` is not wholly in view: {what}");
                    assert!(r[2] - r[0] >= min_w && r[3] - r[1] >= min_h, "`#{part}` is too small to use: {what}");
                }
                let (play, picture) = (m["play"].as_array().unwrap(), m["picture"].as_array().unwrap());
                assert!(num(&play[0]) >= num(&picture[2]), "the decision sits beside the table, not above it: {what}");
                assert!(num(&m["smallest"]) >= 11.0, "a label of the table under 11 CSS px (`{}`): {what}", m["label"]);
                // The address now names the table and the seat.
                let path = m["path"].as_str().unwrap().to_string();
                assert!(path.starts_with("/table/") && path.ends_with("?seat=1"), "{what}");
                if w == 1400 {
                    std::fs::write(screenshot_path(&format!("web-{game}.png")), c.screenshot().await.unwrap()).unwrap();
                }
                if game == "bsg-ccg" {
                    // The table's link opens the seat again here.
                    c.goto(&format!("{}{path}", server.url)).await.unwrap();
                    wait_for(&c, "#picture svg").await;
                    let prompt = wait_for(&c, "#decision").await.text().await.unwrap();
                    assert!(!prompt.is_empty(), "the seat's decision, again: {what}");
                    // Without the seat's secret (another browser), it opens nothing.
                    c.execute("localStorage.clear()", vec![]).await.unwrap();
                    c.goto(&format!("{}{path}", server.url)).await.unwrap();
                    let refused = wait_for(&c, "#setup-error").await;
                    for _ in 0..50 {
                        if !refused.text().await.unwrap().is_empty() {
                            break;
                        }
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                    assert!(refused.text().await.unwrap().contains("did not sit at seat 1"), "{what}");
                    assert!(c.find(Locator::Css("#picture svg")).await.is_err(), "nothing of the table is shown: {what}");
                }
            }
        }
        c.close().await.unwrap();
    });
}

/// The start form groups a game's variants by where they come from and folds each group; a
/// group's heading counts those switched on. The board game has expansions, official options and
/// other readings.
#[test]
fn the_start_form_folds_the_variants_by_where_they_come_from() {
    let server = Server::start();
    let driver = Driver::start();
    run(async {
        let c = driver.browser().await;
        c.set_window_size(1024, 768).await.unwrap();
        c.goto(&format!("{}/", server.url)).await.unwrap();
        pick(&c, "#game", "bsg-board").await;
        wait_for(&c, ".variant-group[data-group='expansion']").await;
        let groups = c
            .execute(
                "return [...document.querySelectorAll('.variant-group')].map(g => [g.dataset.group, g.open, g.querySelectorAll('.variant').length])",
                vec![],
            )
            .await
            .unwrap();
        let groups = groups.as_array().unwrap();
        let names: Vec<&str> = groups.iter().map(|g| g[0].as_str().unwrap()).collect();
        assert_eq!(names, ["expansion", "option", "reading", "house"], "{groups:?}");
        assert!(groups.iter().all(|g| g[1] == false), "every group folded: {groups:?}");
        assert!(groups.iter().all(|g| g[2].as_u64().unwrap() >= 1), "{groups:?}");
        // Folded, the form fits a laptop's screen with the Start button in view.
        let start_bottom = c.execute("return document.getElementById('start').getBoundingClientRect().bottom", vec![]).await.unwrap();
        assert!(start_bottom.as_f64().unwrap() < 768.0, "the Start button is below the fold: {start_bottom}");
        // Opened, a variant switched on is counted in its group's heading.
        c.find(Locator::Css(".variant-group[data-group='expansion'] > summary")).await.unwrap().click().await.unwrap();
        c.find(Locator::Css(".variant[value='cag']")).await.unwrap().click().await.unwrap();
        let heading = c.find(Locator::Css(".variant-group[data-group='expansion'] > summary")).await.unwrap().text().await.unwrap();
        assert!(heading.starts_with("Expansions") && heading.ends_with(", 1 on)"), "{heading}");
        // The other game's form has none of the board game's variants.
        pick(&c, "#game", "tic-tac-toe").await;
        assert!(c.find(Locator::Css(".variant-group")).await.is_err(), "tic-tac-toe has no variants of its own");
        c.close().await.unwrap();
    });
    // A player's own file's variants are house rules.
    let server = Server::start_with(&["--rules", "tests/house-rules/tic-tac-toe/house.arb"]);
    run(async {
        let c = driver.browser().await;
        c.goto(&format!("{}/", server.url)).await.unwrap();
        pick(&c, "#game", "tic-tac-toe").await;
        wait_for(&c, ".variant-group[data-group='house'] .variant[value='diagonals-only']").await;
        assert_eq!(c.find_all(Locator::Css(".variant-group")).await.unwrap().len(), 1, "only house rules");
        c.close().await.unwrap();
    });
}
