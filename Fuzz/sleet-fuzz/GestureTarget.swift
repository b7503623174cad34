import SleetKit

/// `PanGesture(json:)` on any bytes, then what `sleet transition render
/// --gesture` does with an accepted gesture: replay it through an
/// interactive transition (style chosen by the input's length), count the
/// frames at 30 fps, refuse more than a folder takes, and evaluate every
/// frame's transition time. Checked: the samples are finite and increasing;
/// the direction is the sign of the first non-zero translation and
/// `check(drives:)` refuses exactly a leftward pan's push and present; the
/// ignored field names are sorted, distinct and ignorable; every transition
/// time is finite and in [0, duration], and the same bits as the replay of
/// the mirror image (every translation negated) gives.
enum GestureTarget {
  static let transitions: [Transition] = TransitionStyle.allCases.map { style in
    var options = TransitionOptions()
    switch style {
    case .zoom:
      options.imageRect = Rect(x: 10, y: 10, width: 50, height: 50)
      options.targetRect = Rect(x: 0, y: 100, width: 390, height: 390)
    case .circleReveal: options.button = Rect(x: 300, y: 40, width: 44, height: 44)
    default: break
    }
    // Safe: every style's options are complete for a 390×844 container.
    return try! Transition(style: style, width: 390, height: 844, options: options)
  }

  static func run(_ bytes: [UInt8]) {
    let gesture: PanGesture
    do throws(GestureError) {
      gesture = try PanGesture(json: bytes)
    } catch {
      fuzzCheck(!error.description.isEmpty, "an empty error message")
      return
    }
    for (i, s) in gesture.samples.enumerated() {
      fuzzCheck(s.time.isFinite && s.translationX.isFinite, "sample \(i) is not finite")
      fuzzCheck(i == 0 || s.time > gesture.samples[i - 1].time, "sample \(i) is out of order")
    }
    let first = gesture.samples.first { $0.translationX != 0 }?.translationX ?? 0
    fuzzCheck(gesture.direction == (first < 0 ? .leftward : .rightward), "direction \(gesture.direction)")
    for direction in TransitionDirection.allCases {
      let refused = gesture.direction == .leftward && direction.isForward
      do throws(GestureError) {
        try gesture.check(drives: direction)
        fuzzCheck(!refused, "a \(gesture.direction) pan drives \(direction)")
      } catch {
        fuzzCheck(refused && error == .leftwardPanCannotDrive(direction), "\(error)")
      }
    }
    let ignorable = ["locationX", "locationY", "state", "translationY", "velocityX", "velocityY"]
    fuzzCheck(
      zip(gesture.ignoredFields, gesture.ignoredFields.dropFirst()).allSatisfy { $0 < $1 }
        && gesture.ignoredFields.allSatisfy(ignorable.contains), "ignoredFields \(gesture.ignoredFields)")
    let mirror: PanGesture
    do throws(GestureError) {
      mirror = try PanGesture(samples: gesture.samples.map { .init(time: $0.time, translationX: -$0.translationX) })
    } catch {
      fuzzCheck(false, "the mirror image is refused: \(error)")
      return
    }
    let transition = transitions[bytes.count % transitions.count]
    let interaction = InteractiveTransition(transition)
    let replay = GestureReplay(gesture, extent: transition.width, interaction: interaction)
    let mirrored = GestureReplay(mirror, extent: transition.width, interaction: interaction)
    fuzzCheck(
      replay.finishes == mirrored.finishes && replay.endClock.bitPattern == mirrored.endClock.bitPattern,
      "the mirror image ends differently")
    // As `sleet transition render` does: the frame count, the limit, the clocks.
    guard let count = replay.frameCount(fps: 30), count <= SleetLimits.frames else { return }
    let clocks = replay.clocks(fps: 30)
    fuzzCheck(clocks.count == count, "frameCount \(count) but \(clocks.count) clocks")
    for clock in clocks {
      let time = replay.transitionTime(at: clock)
      fuzzCheck(
        time.isFinite && time >= 0 && time <= transition.duration, "transition time \(time) at clock \(clock)")
      fuzzCheck(
        time.bitPattern == mirrored.transitionTime(at: clock).bitPattern,
        "the mirror image is at \(mirrored.transitionTime(at: clock)), not \(time), at clock \(clock)")
    }
  }
}
