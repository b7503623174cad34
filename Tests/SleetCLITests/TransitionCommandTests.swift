import Foundation
import SleetKit
import Testing
import _SleetTestSupport

@testable import SleetCLI

@Suite("sleet transition")
struct TransitionCommandTests {
  func json(_ text: String) throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
    return try #require(object as? [String: Any])
  }

  func layers(_ arguments: [String]) throws -> [[String: Any]] {
    let r = runSleet(["transition", "frame", "--json"] + arguments)
    #expect(r.status == 0, "\(r.err)")
    return try #require(try json(r.out)["layers"] as? [[String: Any]])
  }

  @Test func frameOfTheSlideHalfWay() throws {
    // ease(0.5) = 0.5 (easeInEaseOut is symmetric): the to screen's left edge
    // is at W/2, the dimming layer at 0.3 · 0.5.
    let list = try layers(["--style", "slide", "--size", "390x844", "--progress", "0.5"])
    #expect(list.map { $0["content"] as? String } == ["from", "color", "to"])
    #expect(list[2]["corners"] as? [[Double]] == [[195, 0], [585, 0], [585, 844], [195, 844]])
    #expect(abs((list[1]["opacity"] as? Double ?? 0) - 0.15) < 1e-7)
    #expect(list[1]["color"] as? [Double] == [0, 0, 0, 1])
    #expect(list.allSatisfy { $0["mask"] is NSNull })
    // --time D/2 is the same frame as --progress 0.5.
    let byTime = runSleet(["transition", "frame", "--json", "--style", "slide", "--size", "390x844", "--time", "0.175"])
    let byProgress = runSleet([
      "transition", "frame", "--json", "--style", "slide", "--size", "390x844", "--progress", "0.5",
    ])
    #expect(byTime.out == byProgress.out)
  }

  @Test func frameOfTheCircleRevealHasItsMask() throws {
    // Button (320, 56, 44, 44) in 390×844: right and top, so
    // v = (342 − 0, 78 − (844 − 30)) = (342, −736), r = √658660.
    let r = 658_660.0.squareRoot()
    let start = try layers(["--style", "circleReveal", "--size", "390x844", "--time", "0", "--button", "320,56,44,44"])
    #expect(start.map { $0["content"] as? String } == ["from", "to"])
    let mask0 = try #require(start[1]["mask"] as? [String: Double])
    #expect(mask0 == ["x": 320, "y": 56, "width": 44, "height": 44])
    let end = try layers(["--style", "circleReveal", "--size", "390x844", "--time", "0.5", "--button", "320,56,44,44"])
    let mask1 = try #require(end[1]["mask"] as? [String: Double])
    #expect(abs(mask1["x"]! - (320 - r)) < 1e-9 && abs(mask1["y"]! - (56 - r)) < 1e-9)
    #expect(abs(mask1["width"]! - (44 + 2 * r)) < 1e-9 && abs(mask1["height"]! - (44 + 2 * r)) < 1e-9)
  }

  @Test func frameOfEveryStyleIsValidJSON() throws {
    let extra: [TransitionStyle: [String]] = [
      .zoom: ["--image-rect", "10,100,100,100", "--target-rect", "0,50,390,390"],
      .circleReveal: ["--button", "20,700,44,44"],
    ]
    for style in TransitionStyle.allCases {
      for direction in style.directions {
        let r = runSleet(
          [
            "transition", "frame", "--json", "--style", style.rawValue, "--size", "390x844", "--direction",
            direction.rawValue, "--progress", "0.3",
          ] + (extra[style] ?? []))
        #expect(r.status == 0, "\(style) \(direction): \(r.err)")
        let document = try json(r.out)
        #expect(document["style"] as? String == style.rawValue)
        #expect(document["direction"] as? String == direction.rawValue)
        let list = try #require(document["layers"] as? [[String: Any]])
        #expect(list.count >= 2, "\(style)")
        for layer in list {
          #expect((layer["corners"] as? [Any])?.count == 4)
          #expect(["from", "to", "color", "image"].contains(layer["content"] as? String))
        }
      }
    }
  }

  @Test func badInputIsAUsageErrorNamingTheFlag() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    try Array(#"{"samples": [{"time": 0.2, "translationX": 1}, {"time": 0.1, "translationX": 2}]}"#.utf8)
      .write(to: folder + "/backwards.json")
    try PNGFile.write(DemoPicture.first.image(width: 40, height: 300), to: folder + "/a.png")
    try PNGFile.write(DemoPicture.second.image(width: 40, height: 300), to: folder + "/b.png")
    let frame = ["transition", "frame", "--size", "390x844", "--time", "0.1"]
    let render = ["transition", "render", "--from", folder + "/a.png", "--to", folder + "/b.png"]
    let cases: [([String], String)] = [
      (frame, "--style is required"),
      (frame + ["--style", "swirl"], "--style: expected slide, fade"),
      (
        frame + ["--style", "slide", "--direction", "present"],
        "--direction: slide does not take the direction present; it takes push or pop"
      ),
      (frame + ["--style", "window", "--direction", "push"], "it takes present or dismiss"),
      (frame + ["--style", "explode", "--direction", "pop"], "explode does not take the direction pop; it takes push"),
      (
        frame + ["--style", "circleReveal", "--button", "380,10,44,44"],
        "--button: button (380, 10, 44, 44) is not inside the 390×844 container"
      ),
      (frame + ["--style", "circleReveal", "--button", "10,10,0,44"], "--button: button (10, 10, 0, 44) is empty"),
      (frame + ["--style", "circleReveal", "--button", "10,10,nan,44"], "--button: expected x,y,w,h"),
      (frame + ["--style", "slide", "--button", "0,0,10,10"], "--button: button does not apply to slide"),
      (frame + ["--style", "checkerboard", "--seed", "3"], "--seed: seed does not apply to checkerboard"),
      (frame + ["--style", "checkerboard", "--divisor", "0"], "--divisor"),
      (
        ["transition", "frame", "--style", "slide", "--size", "390x844", "--time", "-1"], "--time: expected seconds ≥ 0"
      ),
      (
        ["transition", "frame", "--style", "slide", "--size", "390x844", "--progress", "2"],
        "--progress: expected a number in [0, 1]"
      ),
      (frame + ["--style", "slide", "--progress", "0.5"], "--time and --progress: give one, not both"),
      (["transition", "frame", "--style", "slide", "--size", "390x844"], "--time T or --progress P is required"),
      (
        ["transition", "frame", "--style", "tilt3D", "--size", "390x200", "--time", "0"],
        "--size: height must be at least 280 points for tilt3D, got 200"
      ),
      (
        render + ["--style", "slide", "--out", folder + "/o.apng", "--gesture", folder + "/backwards.json"],
        "--gesture \(folder)/backwards.json: samples[1].time 0.1 is not after samples[0].time 0.2"
      ),
      (
        render + ["--style", "slide", "--out", folder + "/o.apng", "--gesture", folder + "/missing.json"],
        "--gesture \(folder)/missing.json: cannot read"
      ),
      (
        render + ["--style", "slide", "--out", folder + "/o.png", "--gesture", folder + "/backwards.json"],
        "--gesture needs an animation"
      ),
      (
        render + ["--style", "slide", "--out", folder + "/o.png", "--image", folder + "/a.png"],
        "--image does not apply to slide"
      ),
      (render + ["--style", "slide", "--out", folder + "/o.apng", "--time", "0.1"], "use them with FILE.png"),
      (
        render + ["--style", "slide", "--out", folder + "/o.png", "--completion-speed", "2"],
        "--completion-speed applies only with --gesture"
      ),
      (
        render + ["--style", "tilt3D", "--out", folder + "/o.png", "--direction", "push"],
        "--direction: tilt3D does not take the direction push"
      ),
    ]
    for (arguments, message) in cases {
      let r = runSleet(arguments)
      #expect(r.status == 2, "\(arguments)")
      #expect(r.err.contains(message), "\(arguments): \(r.err)")
    }
    #expect(folderEntries(folder).sorted() == ["a.png", "b.png", "backwards.json"])
  }

  /// Writes the two demo pictures at `width × height` into `folder`.
  func writePictures(_ folder: String, width: Int, height: Int) throws -> (a: [UInt8], b: [UInt8]) {
    let a = DemoPicture.first.image(width: width, height: height)
    let b = DemoPicture.second.image(width: width, height: height)
    try PNGFile.write(a, to: folder + "/a.png")
    try PNGFile.write(b, to: folder + "/b.png")
    return (
      try PNGFile.read(path: folder + "/a.png").straightRGBA8(),
      try PNGFile.read(path: folder + "/b.png").straightRGBA8()
    )
  }

  @Test func fadeStillHalfWayIsTheEvenBlend() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let (a, b) = try writePictures(folder, width: 20, height: 30)
    let r = runSleet([
      "transition", "render", "--style", "fade", "--from", folder + "/a.png", "--to", folder + "/b.png",
      "--progress", "0.5", "--out", folder + "/half.png",
    ])
    #expect(r.status == 0, "\(r.err)")
    let half = try PNGFile.read(path: folder + "/half.png").straightRGBA8()
    // Both pictures are opaque: to · 0.5 over from = (a + b)/2 per channel (±1 for rounding).
    for i in 0..<half.count {
      let expected = (Double(a[i]) + Double(b[i])) / 2
      #expect(abs(Double(half[i]) - expected) <= 1, "byte \(i)")
    }
  }

  @Test func gestureRendersTheInteractiveTransitionToItsEnd() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let (a, b) = try writePictures(folder, width: 40, height: 30)
    // Dragged to 70 % of W = 40 (28 pt) over 0.2 s, still moving forward: finishes.
    try Array(
      #"{"samples": [{"time": 0, "translationX": 0}, {"time": 0.1, "translationX": 14}, {"time": 0.2, "translationX": 28}]}"#
        .utf8
    ).write(to: folder + "/finish.json")
    // Dragged to 45 % then back to 40 %: p ≤ 0.5 and moving back, cancels.
    try Array(
      #"{"samples": [{"time": 0, "translationX": 0}, {"time": 0.1, "translationX": 18}, {"time": 0.2, "translationX": 16}]}"#
        .utf8
    ).write(to: folder + "/cancel.json")
    for (name, lands, speed) in [("finish", b, "1"), ("cancel", a, "2")] {
      let out = folder + "/\(name).apng"
      let r = runSleet([
        "transition", "render", "--style", "slide", "--direction", "pop", "--from", folder + "/a.png", "--to",
        folder + "/b.png", "--gesture", folder + "/\(name).json", "--fps", "20", "--completion-speed", speed,
        "--out", out,
      ])
      #expect(r.status == 0, "\(r.err)")
      #expect(r.out.contains(name == "finish" ? "finishes" : "cancels"))
      // Finish from p = 0.7: Δ = 0.3 · 0.35 s; cancel from p = 0.4 at speed 2: Δ = 0.4 · 0.35 / 2.
      let delta = name == "finish" ? 0.3 * 0.35 : 0.4 * 0.35 / 2
      let expectedFrames = Int(((0.2 + delta) * 20).rounded(.up)) + 1
      let bytes = try #require(fileBytes(out))
      let summary = try #require(apngSummary(bytes))
      #expect(summary.frames == expectedFrames, "\(name)")
      // The last frame: the transition landed on 1 (b) or 0 (a).
      let frames = runSleet([
        "transition", "render", "--style", "slide", "--direction", "pop", "--from", folder + "/a.png", "--to",
        folder + "/b.png", "--gesture", folder + "/\(name).json", "--fps", "20", "--completion-speed", speed,
        "--out", folder + "/\(name)-frames",
      ])
      #expect(frames.status == 0, "\(frames.err)")
      let names = folderEntries(folder + "/\(name)-frames").sorted()
      #expect(names.count == expectedFrames)
      let last = try PNGFile.read(path: folder + "/\(name)-frames/" + names.last!).straightRGBA8()
      // On pop, a is the from screen (sliding off) and b the to screen underneath.
      #expect(last == (name == "finish" ? b : a), "\(name)")
      _ = lands
    }
  }

  @Test func shatterRenderIsTheTransitionRenderOfItsStyle() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    _ = try writePictures(folder, width: 40, height: 30)
    let common = ["--from", folder + "/a.png", "--to", folder + "/b.png", "--time", "0.9"]
    let old = runSleet(
      ["shatter", "render", "--style", "explode", "--seed", "4", "--out", folder + "/old.png"] + common)
    let new = runSleet(
      ["transition", "render", "--style", "explode", "--seed", "4", "--out", folder + "/new.png"] + common)
    #expect(old.status == 0 && new.status == 0, "\(old.err) \(new.err)")
    #expect(fileBytes(folder + "/old.png") == fileBytes(folder + "/new.png"))
    #expect(runSleet(["shatter", "render", "--help"]).out.contains("'sleet transition render'"))
  }

  @Test func helpAndGroupOverview() {
    let group = runSleet(["transition", "--help"])
    #expect(group.status == 0)
    #expect(group.out.contains("transition frame") && group.out.contains("transition render"))
    for command in [["transition", "frame"], ["transition", "render"]] {
      let r = runSleet(command + ["--help"])
      #expect(r.status == 0)
      #expect(r.out.hasPrefix("usage: sleet " + command.joined(separator: " ")))
    }
  }
}

extension Array where Element == UInt8 {
  /// Writes the bytes to `path` (test helper).
  func write(to path: String) throws {
    try Data(self).write(to: URL(fileURLWithPath: path))
  }
}
