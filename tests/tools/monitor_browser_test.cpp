// The live monitor in a real browser (label `browser`): headless Chromium, driven over its
// DevTools protocol by a small WebSocket client, opens the page of `augur step --monitor`, sees
// the cells fill, steps, runs to a time, pauses a running simulation, reads an LP's details by
// clicking its cell, and resumes to the end; a screenshot taken mid-run stays in the build tree
// (tests/scratch/augur_monitor_browser/monitor.png).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <sstream>
#include <string>
#include <thread>

#include "tests/support/background.hpp"
#include "tests/support/files.hpp"
#include "tests/support/web_client.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

/// The port in "...http://127.0.0.1:PORT/..." or "ws://127.0.0.1:PORT/...".
std::uint16_t port_in(const std::string& line) {
  return static_cast<std::uint16_t>(std::stoi(line.substr(line.find("127.0.0.1:") + 10)));
}

/// RFC 4648 base64 (DevTools sends screenshots so).
std::string from_base64(const std::string& text) {
  static const std::string digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  unsigned bits = 0;
  int have = 0;
  for (const char c : text) {
    const auto d = digits.find(c);
    if (d == std::string::npos) continue;  // '=' and line breaks
    bits = (bits << 6) | static_cast<unsigned>(d);
    have += 6;
    if (have >= 8) {
      have -= 8;
      out += static_cast<char>((bits >> have) & 0xff);
    }
  }
  return out;
}

/// One page of the browser over the DevTools protocol.
class DevTools {
 public:
  DevTools(std::uint16_t port, const std::string& path) : ws_(port, path) {}

  /// Calls `method`; the result, or a failed check with the protocol's error.
  json call(const std::string& method, const json& params = json::object()) {
    const int id = ++id_;
    ws_.send(json{{"id", id}, {"method", method}, {"params", params}}.dump());
    for (;;) {
      json m = json::parse(ws_.read());
      if (!m.contains("id") || m["id"] != id) continue;  // an event
      if (m.contains("error")) FAIL(method << ": " << m["error"].dump());
      return m["result"];
    }
  }
  /// The value of a script expression in the page.
  json eval(const std::string& expression) {
    const json r = call("Runtime.evaluate", {{"expression", expression}, {"returnByValue", true}});
    if (r.contains("exceptionDetails")) FAIL(expression << ": " << r["exceptionDetails"].dump());
    return r["result"].value("value", json());
  }
  /// Whether `condition` (an expression) became true within `limit`.
  bool wait_for(const std::string& condition, std::chrono::seconds limit = std::chrono::seconds(60)) {
    const auto until = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < until) {
      // Before the page has loaded, document.body is null: not yet.
      if (eval("(() => { try { return !!(" + condition + "); } catch (e) { return false; } })()") == true) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
  }
  /// A left click at (x, y) of the viewport, as a user's.
  void click(double x, double y) {
    for (const char* type : {"mousePressed", "mouseReleased"}) {
      call("Input.dispatchMouseEvent", {{"type", type}, {"x", x}, {"y", y}, {"button", "left"}, {"clickCount", 1}});
    }
  }

 private:
  augur::test::WsClient ws_;
  int id_ = 0;
};

const char* const body = "document.body.dataset";

}  // namespace

TEST_SUITE("browser") {
  TEST_CASE("The live monitor in headless Chromium: cells fill - pause - step - an LP's details - run to the end") {
    const fs::path dir = augur::test::scratch_dir("augur_monitor_", "browser");
    // 256 ranks, 200 iterations: long enough to pause while it runs, short under the sanitizers.
    augur::test::Background augur(
        {AUGUR_BINARY, "step", "--trace", "synthetic:P=256,I=200", "--wait-states", "off", "--monitor", "127.0.0.1:0"},
        dir / "augur.out", dir / "augur.err");
    const std::string line = augur.err_line("augur: monitor: http://", std::chrono::seconds(60));
    REQUIRE(!line.empty());
    const std::string url =
        line.substr(line.find("http://"), line.find(' ', line.find("http://")) - line.find("http://"));
    CHECK(augur::test::http_get(port_in(url), "/").status == 403);  // no token

    augur::test::Background chromium(
        {"chromium", "--headless", "--disable-gpu", "--no-sandbox", "--disable-dev-shm-usage", "--no-first-run",
         "--hide-scrollbars", "--user-data-dir=" + (dir / "profile").string(), "--window-size=1200,900",
         "--remote-debugging-port=0", url},
        dir / "chromium.out", dir / "chromium.err");
    const std::string devtools = chromium.err_line("DevTools listening on ws://", std::chrono::seconds(60));
    REQUIRE_MESSAGE(!devtools.empty(), augur::test::slurp(dir / "chromium.err"));
    const json targets = json::parse(augur::test::http_get(port_in(devtools), "/json/list").body);
    std::string page_path;
    for (const json& t : targets) {
      if (t["type"] == "page" && t["url"].get<std::string>().find("/?token=") != std::string::npos) {
        const std::string ws = t["webSocketDebuggerUrl"];
        page_path = ws.substr(ws.find('/', ws.find("127.0.0.1:")));
      }
    }
    REQUIRE(!page_path.empty());
    DevTools page(port_in(devtools), page_path);

    // `augur step` waits at the first event; one cell has left idle.
    REQUIRE(page.wait_for(std::string(body) + ".connected === '1' && " + body + ".events === '1' && " + body +
                          ".paused === '1'"));
    CHECK(page.eval("document.getElementById('grouping').textContent") == "256 LPs");
    CHECK(page.eval(std::string("+") + body + ".busy") == 1);

    // Step 4999 events: paused at event 5000 with the cells filled.
    page.eval("document.getElementById('step-n').value = '4999'; document.getElementById('step').click()");
    REQUIRE(page.wait_for(std::string(body) + ".events === '5000' && " + body + ".paused === '1'"));
    CHECK(page.eval(std::string("+") + body + ".busy") == 256);

    // Run to twice the simulated time reached: paused there, not finished.
    const double t0 = std::stod(page.eval(std::string(body) + ".time").get<std::string>());
    REQUIRE(t0 > 0);
    std::ostringstream target;
    target << std::setprecision(17) << 2 * t0;
    page.eval("document.getElementById('time-t').value = '" + target.str() +
              "'; document.getElementById('run-time').click()");
    REQUIRE(page.wait_for(std::string("+") + body + ".events > 5000 && " + body + ".paused === '1'"));
    CHECK(std::stod(page.eval(std::string(body) + ".time").get<std::string>()) >= 2 * t0 * (1 - 1e-12));
    CHECK(page.eval(std::string(body) + ".finished") == "0");
    const json shot = page.call("Page.captureScreenshot", {{"format", "png"}});
    const std::string png = from_base64(shot["data"].get<std::string>());
    augur::test::write_file((dir / "monitor.png").string(), png);
    CHECK(png.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);
    CHECK(png.size() > 10000);

    // Resume and pause at once: the running simulation stops before its end.
    const long before = std::stol(page.eval(std::string(body) + ".events").get<std::string>());
    page.eval("document.getElementById('resume').click(); document.getElementById('pause').click()");
    REQUIRE(page.wait_for(std::string("+") + body + ".events > " + std::to_string(before) + " && " + body +
                          ".paused === '1'"));
    CHECK(page.eval(std::string(body) + ".finished") == "0");

    // A click on LP 5's cell shows what `augur step`'s print shows.
    const json box = page.eval(
        "(() => { const c = document.getElementById('grid'), r = c.getBoundingClientRect();"
        " return [r.left, r.top, +c.dataset.size, +c.dataset.columns]; })()");
    const double size = box[2], columns = box[3];
    REQUIRE(columns > 5);
    page.click(box[0].get<double>() + 5 * size + size / 2, box[1].get<double>() + size / 2);
    REQUIRE(page.wait_for("document.getElementById('details').dataset.lp === '5'"));
    const std::string details = page.eval("document.getElementById('details').textContent");
    CHECK(details.find("LP 5: clock=") == 0);
    CHECK(details.find("status=") != std::string::npos);

    // Resume to the end: every LP done, augur exits normally.
    page.eval("document.getElementById('resume').click()");
    REQUIRE(page.wait_for(std::string(body) + ".finished === '1'"));
    CHECK(page.eval("document.getElementById('count-done').textContent") == "256");
    CHECK(page.eval("document.getElementById('state').textContent").get<std::string>().find("finished (completed)") ==
          0);
    CHECK(augur.wait(std::chrono::seconds(60)) == 0);
    page.call("Browser.close");
    CHECK(chromium.wait(std::chrono::seconds(30)).has_value());
  }
}
