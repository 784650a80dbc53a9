import Foundation
import Testing
import UnpromptKit

/// `UsageQueries.open`: settings, then readings, then the store; a failure stops before the next part.
struct ViewOpeningTests {
    let corpus: QueryCorpus

    init() throws { corpus = try QueryCorpus() }

    @Test func aBrokenSettingsFileStopsBeforeTheStoreIsMade() throws {
        let settings = corpus.directory + "/config.yaml"
        try "work_hours: [\n".write(toFile: settings, atomically: true, encoding: .utf8)
        #expect {
            try UsageQueries.open(corpus.request(settings: settings), descriptors: corpus.descriptors, step: QueryCorpus.step)
        } throws: { error in
            guard case ViewOpeningError.settings(let problem) = error else { return false }
            return problem.description.hasPrefix(settings + ":")
        }
        #expect(!FileManager.default.fileExists(atPath: corpus.storePath))
    }

    @Test func missingPriceDataIsReportedBeforeTheStoreIsMade() throws {
        var request = corpus.request()
        request.readings.waterDirectory = nil
        #expect {
            try UsageQueries.open(request, descriptors: corpus.descriptors, step: QueryCorpus.step)
        } throws: { error in
            guard case ViewOpeningError.readings(let problem) = error else { return false }
            return problem.message.contains(ReadingsLocation.waterVariable)
        }
        #expect(!FileManager.default.fileExists(atPath: corpus.storePath))
    }

    @Test func aStoreThatCannotBeOpenedIsAStoreError() throws {
        try FileManager.default.createDirectory(atPath: corpus.storePath, withIntermediateDirectories: true)
        #expect {
            try UsageQueries.open(corpus.request(), descriptors: corpus.descriptors, step: QueryCorpus.step)
        } throws: { error in
            guard case ViewOpeningError.store = error else { return false }
            return true
        }
    }

    @Test func aScanIsReportedAndMeasuredAndASecondFindsNothingNew() throws {
        let first = try UsageQueries.open(corpus.request(), descriptors: corpus.descriptors, step: QueryCorpus.step)
        #expect(first.scan?.counted == 14 && first.scan?.readEverything == true)
        #expect(try first.queries.store?.measuredAt() == QueryCorpus.now)
        let second = try UsageQueries.open(
            corpus.request(now: QueryCorpus.now + 1), descriptors: corpus.descriptors, step: QueryCorpus.step)
        #expect(second.scan?.counted == 0 && second.scan?.unchanged == 3)
        #expect(try second.queries.store?.measuredAt() == QueryCorpus.now + 1)
    }

    @Test func zonesAreNamedAsTheyArePrinted() {
        #expect(ViewZone.resolve("utc", environment: [:])?.name == "UTC")
        #expect(ViewZone.resolve("Asia/Kathmandu", environment: [:])?.offsetMinutes(at: QueryCorpus.now) == 345)
        #expect(ViewZone.resolve("Mars/Olympus", environment: [:]) == nil)
        #expect(ViewZone.resolve("", environment: [:]) == nil)
        #expect(ViewZone.resolve(nil, environment: ["TZ": ":/usr/share/zoneinfo/Asia/Kolkata"])?.name == "Asia/Kolkata")
    }
}
