import Foundation
import Testing
@testable import StudyKit

@Suite("CurlTransport against a real loopback server")
struct CurlTransportTests {
    let server: FixtureServer
    let transport = CurlTransport()

    init() throws { server = try FixtureServer() }

    @Test func fetchesAFileWithItsHead() async throws {
        let response = try await transport.send(HTTPRequest(url: server.url("/HTTP/hello.html")))
        #expect(response.head.status == 200)
        #expect(response.head.mediaType == "text/html")
        #expect(response.head.charset == "utf-8")
        #expect(String(decoding: response.body, as: UTF8.self).contains("Hello from the fixture server."))
    }

    @Test func followsUpToTheRedirectLimit() async throws {
        let response = try await transport.send(HTTPRequest(url: server.url("/redirect/4?to=/plain")))  // five hops
        #expect(response.head.status == 200)
        #expect(response.head.url.path == "/plain")
    }

    @Test(arguments: ["/redirect/5?to=/plain", "/loop"])
    func failsPastTheRedirectLimit(path: String) async throws {
        await #expect(throws: HTTPError.tooManyRedirects(server.url(path).absoluteString, limit: 5)) {
            _ = try await transport.send(HTTPRequest(url: server.url(path)))
        }
    }

    @Test(arguments: ["yes", "no"])
    func capsTheBody(withLength: String) async throws {
        let url = server.url("/big?bytes=5000&length=\(withLength)")
        await #expect(throws: HTTPError.bodyTooLarge(url.absoluteString, limit: 1000)) {
            _ = try await transport.send(HTTPRequest(url: url, maxBodyBytes: 1000))
        }
        let whole = try await transport.send(HTTPRequest(url: url, maxBodyBytes: 5000))
        #expect(whole.body.count == 5000)
    }

    /// A redirect to `file:` (or any scheme but http(s)) is refused, and the message names where
    /// the server pointed: the user's URL was fine, so it is bad data (65), not a usage error.
    @Test(arguments: ["file:///etc/passwd", "ftp://127.0.0.1/notes.pdf"])
    func aRedirectToAnotherSchemeNamesItsTarget(target: String) async throws {
        let url = server.url("/redirect/1?to=\(target)")
        do {
            _ = try await transport.send(HTTPRequest(url: url))
            Issue.record("expected the redirect to be refused")
        } catch let error as HTTPError {
            #expect(error == .redirectRefused(url.absoluteString, target: target))
            #expect(error.exitCode == .dataError)
            #expect(error.message.contains("redirected to \(target), which studykit does not follow"))
        }
    }

    @Test func aSilentServerFailsWithinItsDeadline() async throws {
        let url = server.url("/slow?seconds=30")
        await #expect(throws: HTTPError.timedOut(url.absoluteString, seconds: 1)) {
            _ = try await transport.send(HTTPRequest(url: url, deadline: 1))
        }
    }

    @Test func aClosedPortIsAConnectionFailure() async throws {
        let url = URL(string: "http://127.0.0.1:9/")!
        do {
            _ = try await transport.send(HTTPRequest(url: url))
            Issue.record("expected a connection failure")
        } catch let error as HTTPError {
            #expect(error.isConnectionFailure)
            #expect(error.exitCode == .noInput)
        }
    }

    @Test func postsABodyWithHeaders() async throws {
        let request = HTTPRequest(
            url: server.url("/echo"), method: "POST", headers: ["Content-Type": "application/json", "X-Probe": "1"],
            body: Data(#"{"a":1}"#.utf8))
        let response = try await transport.send(request)
        let echoed = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        #expect(echoed?["method"] as? String == "POST")
        #expect(echoed?["body"] as? String == #"{"a":1}"#)
        #expect((echoed?["headers"] as? [String: String])?["x-probe"] == "1")
    }

    @Test func streamsTheHeadBeforeTheBody() async throws {
        let streaming = try await transport.stream(HTTPRequest(url: server.url("/big?bytes=200000")))
        #expect(streaming.head.status == 200)
        var total = 0
        for try await chunk in streaming.body { total += chunk.count }
        #expect(total == 200000)
    }

    @Test func rejectsNonHTTPURLs() async throws {
        await #expect(throws: HTTPError.invalidURL("file:///etc/passwd")) {
            _ = try await transport.send(HTTPRequest(url: URL(string: "file:///etc/passwd")!))
        }
    }

    @Test func manyConcurrentRequestsAllSucceed() async throws {
        let url = server.url("/plain")
        let transport = self.transport
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<12 { group.addTask { try await transport.send(HTTPRequest(url: url)).head.status } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 12))
    }
}
