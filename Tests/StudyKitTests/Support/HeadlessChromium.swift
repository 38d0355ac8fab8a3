import Foundation
import Testing

/// Debian's `chromium`, run headless the way the page's users would open `kit.html`: from
/// `file://`, no network. `scripts/setup` installs it.
///
/// Each run gets its own profile directory, so tests running in parallel never share one.
struct HeadlessChromium {
    /// What one run printed: the DOM after load, and the browser's log with the page's console
    /// messages (`INFO:CONSOLE` lines).
    struct Run {
        let dom: String
        let log: String

        /// The page's console messages: errors, uncaught exceptions, anything it logged.
        var consoleLines: [String] { log.split(separator: "\n").map(String.init).filter { $0.contains(":CONSOLE") } }
    }

    let path: String

    /// The browser, or a failed expectation naming how to install it.
    static func require(sourceLocation: SourceLocation = #_sourceLocation) throws -> HeadlessChromium {
        let candidates = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        let path = try #require(
            candidates.first { FileManager.default.isExecutableFile(atPath: $0) },
            "chromium is not installed; run scripts/setup (it installs Debian's chromium)", sourceLocation: sourceLocation)
        return HeadlessChromium(path: path)
    }

    /// Loads `url` and prints its DOM once the page has run its load-time script.
    func dumpDOM(_ url: URL, width: Int = 1100, height: Int = 900) throws -> Run {
        try run(["--window-size=\(width),\(height)", "--dump-dom", url.absoluteString])
    }

    /// A PNG of the top `width`×`height` pixels of `url`, in the light or the dark colour scheme.
    func screenshot(_ url: URL, width: Int, height: Int, dark: Bool = false) throws -> Data {
        let scratch = try ScratchDirectory("shot")
        let file = scratch.url.appendingPathComponent("page.png")
        _ = try run(["--hide-scrollbars", "--window-size=\(width),\(height)", "--screenshot=\(file.path)"]
            + (dark ? ["--force-dark-mode"] : []) + [url.absoluteString])
        return try Data(contentsOf: file)
    }

    /// The luminance variance of each `regions` rectangle (x, y, width, height in CSS pixels) of
    /// a PNG: a blank region has 0. The browser decodes the image (a data: URL, so the canvas may
    /// read it back) and measures it.
    func luminanceVariance(png: Data, regions: [[Double]]) throws -> [Double] {
        let scratch = try ScratchDirectory("variance")
        let page = scratch.url.appendingPathComponent("measure.html")
        let regionsJSON = String(decoding: try JSONSerialization.data(withJSONObject: regions), as: UTF8.self)
        let html = """
            <!DOCTYPE html><html><body><img id="shot" src="data:image/png;base64,\(png.base64EncodedString())">
            <script>
            var img = document.getElementById('shot'), out = document.createElement('pre');
            out.id = 'variance';
            function measure() {
              var canvas = document.createElement('canvas');
              canvas.width = img.naturalWidth; canvas.height = img.naturalHeight;
              var context = canvas.getContext('2d');
              context.drawImage(img, 0, 0);
              out.textContent = JSON.stringify(\(regionsJSON).map(function (r) {
                var x = Math.max(0, Math.floor(r[0])), y = Math.max(0, Math.floor(r[1]));
                var w = Math.min(canvas.width - x, Math.floor(r[2])), h = Math.min(canvas.height - y, Math.floor(r[3]));
                if (w <= 0 || h <= 0) { return -1; }
                var pixels = context.getImageData(x, y, w, h).data, sum = 0, squares = 0, n = w * h;
                for (var i = 0; i < pixels.length; i += 4) {
                  var l = 0.2126 * pixels[i] + 0.7152 * pixels[i + 1] + 0.0722 * pixels[i + 2];
                  sum += l; squares += l * l;
                }
                var mean = sum / n;
                return squares / n - mean * mean;
              }));
              document.body.appendChild(out);
            }
            if (img.complete) { measure(); } else { img.onload = measure; }
            </script></body></html>
            """
        try Data(html.utf8).write(to: page)
        let dom = try dumpDOM(page).dom
        let json = try #require(Self.element("variance", in: dom), "the measuring page wrote no result")
        return try JSONDecoder().decode([Double].self, from: Data(json.utf8))
    }

    /// The text of `<pre id="ID">` in a dumped DOM, entities decoded.
    static func element(_ id: String, in dom: String) -> String? {
        guard let start = dom.range(of: "<pre id=\"\(id)\">"), let end = dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex)
        else { return nil }
        return String(dom[start.upperBound..<end.lowerBound])
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&nbsp;", with: "\u{00A0}").replacingOccurrences(of: "&amp;", with: "&")
    }

    private func run(_ arguments: [String]) throws -> Run {
        let profile = try ScratchDirectory("chromium-profile")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = [
            "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run", "--disable-extensions",
            "--user-data-dir=\(profile.url.path)", "--enable-logging=stderr", "--v=0", "--virtual-time-budget=5000",
        ] + arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // A browser that hangs must not hang the suite.
        DispatchQueue.global().asyncAfter(deadline: .now() + 90) { if process.isRunning { process.terminate() } }
        let (outData, errData) = StudykitBinary.readToEnd(process, out: out, err: err)
        return Run(dom: String(decoding: outData, as: UTF8.self), log: String(decoding: errData, as: UTF8.self))
    }
}
