// The HTML report in a real browser (label `browser`): the report of a processor sweep opens in
// headless Chromium (Debian package `chromium`, installed by tools/install-deps.sh) without
// console messages, its DOM holds the scalability plots, and a screenshot shows them.
#include <doctest/doctest.h>
#include <zlib.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/support/files.hpp"

namespace {

namespace fs = std::filesystem;

// The Chromium executable, or "" when none is installed.
std::string find_chromium() {
  for (const char* name : {"chromium", "chromium-browser", "google-chrome"}) {
    const std::string cmd = std::string("command -v ") + name + " > /dev/null 2>&1";
    if (std::system(cmd.c_str()) == 0) return name;
  }
  return {};
}

// Runs headless Chromium on `page` with `mode` ("--screenshot=F" or "--dump-dom"); stdout to
// `out`, stderr (with console messages: --enable-logging=stderr --v=0) to `log`.
int chromium(const std::string& exe, const fs::path& dir, const fs::path& page, const std::string& mode,
             const fs::path& out, const fs::path& log) {
  // `timeout`: a browser that hangs in a container fails the test instead of stalling CI.
  const std::string cmd = "cd '" + dir.string() + "' && timeout 120 " + exe +
                          " --headless --disable-gpu --no-sandbox --disable-dev-shm-usage --no-first-run"
                          " --hide-scrollbars"
                          " --user-data-dir='" +
                          (dir / "profile").string() + "' --window-size=1200,2000 --enable-logging=stderr --v=0 " +
                          mode + " 'file://" + page.string() + "' > '" + out.string() + "' 2> '" + log.string() + "'";
  return std::system(cmd.c_str());
}

// Lines of Chromium's log that report a console message or a page error.
std::vector<std::string> console_lines(const std::string& log) {
  std::vector<std::string> lines;
  std::size_t pos = 0;
  while (pos < log.size()) {
    const std::size_t end = log.find('\n', pos);
    const std::string line = log.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    if (line.find(":CONSOLE") != std::string::npos || line.find("Uncaught") != std::string::npos ||
        line.find("Failed to load resource") != std::string::npos) {
      lines.push_back(line);
    }
    if (end == std::string::npos) break;
    pos = end + 1;
  }
  return lines;
}

// A decoded 8-bit RGB(A) PNG (the only kinds Chromium writes).
struct Image {
  std::uint32_t width = 0, height = 0;
  std::vector<std::uint8_t> rgb;  // width * height * 3
};

std::uint32_t be32(const std::string& s, std::size_t at) {
  return (static_cast<std::uint32_t>(static_cast<std::uint8_t>(s[at])) << 24) |
         (static_cast<std::uint32_t>(static_cast<std::uint8_t>(s[at + 1])) << 16) |
         (static_cast<std::uint32_t>(static_cast<std::uint8_t>(s[at + 2])) << 8) |
         static_cast<std::uint32_t>(static_cast<std::uint8_t>(s[at + 3]));
}

// PNG (ISO/IEC 15948): chunks, zlib-compressed IDAT, per-row filters 0..4 (Paeth predictor).
Image decode_png(const std::string& png) {
  Image img;
  REQUIRE(png.size() > 33);
  REQUIRE(png.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);
  std::string idat;
  int channels = 0;
  for (std::size_t at = 8; at + 8 <= png.size();) {
    const std::uint32_t len = be32(png, at);
    const std::string type = png.substr(at + 4, 4);
    if (type == "IHDR") {
      img.width = be32(png, at + 8);
      img.height = be32(png, at + 12);
      REQUIRE(static_cast<int>(png[at + 16]) == 8);  // bit depth
      const int colour = png[at + 17];
      REQUIRE((colour == 2 || colour == 6));
      channels = colour == 2 ? 3 : 4;
      REQUIRE(static_cast<int>(png[at + 20]) == 0);  // not interlaced
    } else if (type == "IDAT") {
      idat += png.substr(at + 8, len);
    }
    at += 12 + len;
  }
  const std::size_t stride = static_cast<std::size_t>(img.width) * static_cast<std::size_t>(channels);
  std::vector<std::uint8_t> raw((stride + 1) * img.height);
  uLongf raw_len = static_cast<uLongf>(raw.size());
  REQUIRE(uncompress(raw.data(), &raw_len, reinterpret_cast<const Bytef*>(idat.data()),
                     static_cast<uLong>(idat.size())) == Z_OK);
  REQUIRE(raw_len == raw.size());
  std::vector<std::uint8_t> prev(stride, 0), cur(stride);
  img.rgb.resize(static_cast<std::size_t>(img.width) * img.height * 3);
  const auto bpp = static_cast<std::size_t>(channels);
  for (std::uint32_t y = 0; y < img.height; ++y) {
    const std::uint8_t* row = &raw[y * (stride + 1)];
    const int filter = row[0];
    for (std::size_t i = 0; i < stride; ++i) {
      const int a = i >= bpp ? cur[i - bpp] : 0;
      const int b = prev[i];
      const int c = i >= bpp ? prev[i - bpp] : 0;
      int pred = 0;
      switch (filter) {
        case 0:
          pred = 0;
          break;
        case 1:
          pred = a;
          break;
        case 2:
          pred = b;
          break;
        case 3:
          pred = (a + b) / 2;
          break;
        case 4: {
          const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
          pred = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c);
          break;
        }
        default:
          FAIL("bad PNG filter " << filter);
      }
      cur[i] = static_cast<std::uint8_t>((row[1 + i] + pred) & 0xff);
    }
    for (std::uint32_t x = 0; x < img.width; ++x) {
      for (int k = 0; k < 3; ++k) {
        img.rgb[(static_cast<std::size_t>(y) * img.width + x) * 3 + static_cast<std::size_t>(k)] =
            cur[x * bpp + static_cast<std::size_t>(k)];
      }
    }
    std::swap(prev, cur);
  }
  return img;
}

// `page` with a script added that, once loaded, writes on <body> the page's width
// (data-scroll-width: wider than the 1200-pixel window means a horizontal scroll bar), the
// number of plot legends and how many of them reach beyond their plot (data-clipped).
fs::path with_measures(const fs::path& page) {
  std::string html = augur::test::slurp(page);
  const std::string script =
      "<script>window.addEventListener('load', () => {"
      " let clipped = 0; const legends = document.querySelectorAll('svg text.legend');"
      " for (const t of legends) { const b = t.getBBox(), v = t.ownerSVGElement.viewBox.baseVal;"
      "   if (b.x < 0 || b.y < 0 || b.x + b.width > v.width || b.y + b.height > v.height) ++clipped; }"
      " document.body.setAttribute('data-legends', legends.length);"
      " document.body.setAttribute('data-clipped', clipped);"
      " document.body.setAttribute('data-scroll-width', document.documentElement.scrollWidth); });</script>";
  html.insert(html.rfind("</body>"), script);
  const fs::path measured = page.parent_path() / ("measured-" + page.filename().string());
  augur::test::write_file(measured.string(), html);
  return measured;
}

// The value of attribute `name` of the dumped DOM's <body>, or -1.
long body_attribute(const std::string& dom, const std::string& name) {
  const auto at = dom.find(name + "=\"");
  return at == std::string::npos ? -1 : std::stol(dom.substr(at + name.size() + 2));
}

}  // namespace

TEST_SUITE("browser") {
  TEST_CASE("The HTML report of a processor sweep opens in headless Chromium and shows the plots") {
    const std::string exe = find_chromium();
    REQUIRE_MESSAGE(!exe.empty(), "chromium is not installed: run tools/install-deps.sh (apt package chromium)");
    const fs::path dir = augur::test::scratch_dir("augur_browser_", "sweep");
    const fs::path page = dir / "report.html";
    // The bundled default scenario: prk-stencil at 4, 8 and 16 processors.
    const std::string run = std::string("'") + AUGUR_BINARY + "' run '" + AUGUR_SOURCE_DIR +
                            "/scenarios/examples/default.yaml' --jobs 2 --html '" + page.string() + "' > '" +
                            (dir / "report.txt").string() + "' 2>&1";
    REQUIRE(std::system(run.c_str()) == 0);
    REQUIRE(fs::exists(page));

    // The DOM Chromium built holds both scalability plots with a line per series and the bars.
    REQUIRE(chromium(exe, dir, page, "--dump-dom", dir / "dom.html", dir / "dom.log") == 0);
    const std::string dom = augur::test::slurp(dir / "dom.html");
    CHECK(dom.find("<svg id=\"scalability-time\"") != std::string::npos);
    CHECK(dom.find("<svg id=\"scalability-efficiency\"") != std::string::npos);
    CHECK(dom.find("<polyline") != std::string::npos);
    CHECK(dom.find("id=\"v3-processors\"") != std::string::npos);
    const auto dom_console = console_lines(augur::test::slurp(dir / "dom.log"));
    CHECK_MESSAGE(dom_console.empty(), (dom_console.empty() ? std::string() : dom_console.front()));

    // The screenshot: a real image, not blank, with the plots' colours.
    const fs::path shot = dir / "report.png";
    REQUIRE(chromium(exe, dir, page, "--screenshot=" + shot.string(), dir / "shot.out", dir / "shot.log") == 0);
    REQUIRE(fs::exists(shot));
    CHECK(fs::file_size(shot) > 20000);
    const Image img = decode_png(augur::test::slurp(shot));
    CHECK(img.width == 1200);
    CHECK(img.height == 2000);
    std::size_t non_white = 0, series_blue = 0;
    for (std::size_t i = 0; i + 2 < img.rgb.size(); i += 3) {
      const int r = img.rgb[i], g = img.rgb[i + 1], b = img.rgb[i + 2];
      if (r < 245 || g < 245 || b < 245) ++non_white;
      if (std::abs(r - 0x00) < 8 && std::abs(g - 0x72) < 8 && std::abs(b - 0xb2) < 8) ++series_blue;  // #0072b2
    }
    const std::size_t pixels = static_cast<std::size_t>(img.width) * img.height;
    CHECK(non_white > pixels / 50);  // more than 2 % of the page is drawn
    CHECK(series_blue > 200);        // the first series' line and markers, the compute bars
    const auto console = console_lines(augur::test::slurp(dir / "shot.log"));
    CHECK_MESSAGE(console.empty(), (console.empty() ? std::string() : console.front()));
    MESSAGE("screenshot " << shot.string() << ": " << fs::file_size(shot) << " bytes, " << non_white
                          << " drawn pixels");
  }

  TEST_CASE("Sweep reports fit a 1200-pixel window and their plot legends are not cut") {
    const std::string exe = find_chromium();
    REQUIRE_MESSAGE(!exe.empty(), "chromium is not installed: run tools/install-deps.sh (apt package chromium)");
    const fs::path dir = augur::test::scratch_dir("augur_browser_", "width");
    // A two-axis sweep (long series names: machine, latency and bandwidth) and the DVM sweep over
    // grids and three machines (the widest sweep table of the examples).
    augur::test::write_file((dir / "two-axis.yaml").string(),
                            std::string("schema_version: 1\nname: two axes\ntrace: ti:") + AUGUR_SOURCE_DIR +
                                "/scenarios/examples/traces/prk-stencil-{P}/trace.txt\nmachine: platform_cluster_64\n"
                                "processors: [4, 8]\nsweep:\n  machine.latency: [1us, 100us]\n"
                                "  machine.bandwidth: [1GBps, 10GBps]\n");
    const std::string examples = std::string(AUGUR_SOURCE_DIR) + "/scenarios/examples/";
    for (const std::string& scenario : {(dir / "two-axis.yaml").string(), examples + "dvm_jacobi_machines.yaml"}) {
      const fs::path page = dir / (fs::path(scenario).stem().string() + ".html");
      const std::string run = std::string("'") + AUGUR_BINARY + "' run '" + scenario + "' --jobs 2 --html '" +
                              page.string() + "' > /dev/null 2>&1";
      REQUIRE(std::system(run.c_str()) == 0);
      const fs::path measured = with_measures(page);
      REQUIRE(chromium(exe, dir, measured, "--dump-dom", dir / "m.html", dir / "m.log") == 0);
      const std::string dom = augur::test::slurp(dir / "m.html");
      CAPTURE(scenario);
      CHECK(body_attribute(dom, "data-legends") >= 4);
      CHECK(body_attribute(dom, "data-clipped") == 0);
      const long width = body_attribute(dom, "data-scroll-width");
      CHECK(width > 0);
      CHECK(width <= 1200);
    }
  }

  TEST_CASE("The console check sees a console error in headless Chromium") {
    // The check above must not pass vacuously: a page that logs an error is caught.
    const std::string exe = find_chromium();
    REQUIRE_MESSAGE(!exe.empty(), "chromium is not installed: run tools/install-deps.sh (apt package chromium)");
    const fs::path dir = augur::test::scratch_dir("augur_browser_", "console");
    const fs::path page = dir / "bad.html";
    augur::test::write_file(page.string(),
                            "<!DOCTYPE html><html><head><link rel=\"icon\" href=\"data:,\"></head><body>"
                            "<script>console.error('augur-console-probe');</script></body></html>");
    REQUIRE(chromium(exe, dir, page, "--dump-dom", dir / "dom.html", dir / "dom.log") == 0);
    const auto console = console_lines(augur::test::slurp(dir / "dom.log"));
    REQUIRE(console.size() >= 1);
    CHECK(console.front().find("augur-console-probe") != std::string::npos);
  }
}  // TEST_SUITE
