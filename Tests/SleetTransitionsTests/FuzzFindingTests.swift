import SleetMath
import SleetTransitions
import Testing

/// Bugs the fuzzer found (Fuzz/run.sh gesture; docs/reliability.md), each
/// with the input that showed it. The inputs are also in
/// Fuzz/regressions/gesture/, which every fuzz run replays first.
@Suite("fuzz findings: gestures")
struct GestureFuzzFindingTests {
  static let slide = try! Transition(style: .slide, width: 390, height: 844)

  func replay(_ json: String) throws -> GestureReplay {
    let gesture = try PanGesture(json: Array(json.utf8))
    return GestureReplay(gesture, extent: 390, interaction: InteractiveTransition(Self.slide))
  }

  /// crash-b63664c6…: a gesture spanning 1.261·10⁴² s is valid (finite,
  /// increasing), but its frame count at any rate is no `Int`: the count is
  /// nil, so `clocks(fps:)` is never asked for an impossible number of
  /// frames and `sleet transition render --gesture` refuses it as too long.
  @Test func aGestureSpanningTooLongHasNoFrameCount() throws {
    let long = try replay(#"{"samples": [{"time": 0, "translationX": 200}, {"time": 1261e39, "translationX":50}]}"#)
    #expect(long.frameCount(fps: 30) == nil)
    // The widest span a file can hold: the difference of the times is ∞.
    let widest = try replay(
      #"{"samples": [{"time": -1.7e308, "translationX": 0}, {"time": 1.7e308, "translationX": 1}]}"#)
    #expect(widest.frameCount(fps: 30) == nil)
    // Long but countable: counted without making 30 million clocks.
    let day = try replay(#"{"samples": [{"time": 0, "translationX": 0}, {"time": 1e6, "translationX": 300}]}"#)
    #expect(day.frameCount(fps: 30) == Int(((day.endClock - 0) * 30).rounded(.up)) + 1)
    // An ordinary gesture: the count is the number of clocks.
    let short = try replay(#"{"samples": [{"time": 0, "translationX": 0}, {"time": 0.2, "translationX": 300}]}"#)
    #expect(short.frameCount(fps: 30, hold: 0.5) == short.clocks(fps: 30, hold: 0.5).count)
  }
}
