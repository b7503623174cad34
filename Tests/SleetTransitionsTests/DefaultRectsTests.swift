import SleetMath
import SleetTransitions
import Testing

@Suite("Default rects of zoom and circleReveal")
struct DefaultRectsTests {
  @Test func atTheDemoContainerTheDefaultsAreTheDemosRects() {
    let options = TransitionOptions().filled(for: .zoom, width: 390, height: 844)
    #expect(options.imageRect == Rect(x: 24, y: 160, width: 160, height: 160))
    #expect(options.targetRect == Rect(x: 0, y: 88, width: 390, height: 390))
    #expect(
      TransitionOptions().filled(for: .circleReveal, width: 390, height: 844).button
        == Rect(x: 326, y: 56, width: 44, height: 44))
  }

  @Test func onALargerScreenTheyKeepTheirSizeInPoints() {
    // An iPhone Pro Max: 430 × 932 points. The cell and the button keep
    // their size; the target is as wide as the screen; the button stays by
    // the right edge.
    let zoom = TransitionOptions().filled(for: .zoom, width: 430, height: 932)
    #expect(zoom.imageRect == Rect(x: 24, y: 160, width: 160, height: 160))
    #expect(zoom.targetRect == Rect(x: 0, y: 88, width: 430, height: 430))
    #expect(
      TransitionOptions().filled(for: .circleReveal, width: 430, height: 932).button
        == Rect(x: 366, y: 56, width: 44, height: 44))
    // Landscape, wider than tall: the target square is as tall as the room
    // under the bar, centred.
    let wide = TransitionOptions().filled(for: .zoom, width: 1000, height: 900)
    #expect(wide.targetRect == Rect(x: 94, y: 88, width: 812, height: 812))
  }

  @Test func inASmallerContainerTheyShrinkByTheLayoutScale() {
    // 195 × 844: s = min(1, 0.5, 1) = 0.5.
    #expect(TransitionOptions.defaultLayoutScale(width: 195, height: 844) == 0.5)
    let zoom = TransitionOptions().filled(for: .zoom, width: 195, height: 844)
    #expect(zoom.imageRect == Rect(x: 12, y: 80, width: 80, height: 80))
    #expect(zoom.targetRect == Rect(x: 0, y: 44, width: 195, height: 195))
    #expect(
      TransitionOptions().filled(for: .circleReveal, width: 195, height: 844).button
        == Rect(x: 163, y: 28, width: 22, height: 22))
  }

  /// Every default lies inside every container, so the transition is made
  /// without an error: small, large, landscape, non-integer, extreme.
  @Test func theDefaultsFitAnyContainer() throws {
    var sides: [Double] = [0.001, 0.3, 1, 1.5, 7, 44.25, 100, 280, 390, 844, 1000.7, 4096, Transition.maximumSide]
    var state: UInt64 = 0x5EED
    for _ in 0..<60 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      sides.append(Double(state >> 11) / Double(1 << 53) * 2000 + 0.01)
    }
    for width in sides {
      for height in sides {
        for style in [TransitionStyle.zoom, .circleReveal] {
          let options = TransitionOptions().filled(for: style, width: width, height: height)
          #expect(throws: Never.self, "\(style) in \(width) × \(height)") {
            _ = try Transition(style: style, width: width, height: height, options: options)
          }
        }
      }
    }
  }

  @Test func givenRectsAndOtherStylesAreLeftAlone() {
    let cell = Rect(x: 1, y: 2, width: 3, height: 4)
    let zoom = TransitionOptions(imageRect: cell).filled(for: .zoom, width: 390, height: 844)
    #expect(zoom.imageRect == cell)
    #expect(zoom.targetRect == Rect(x: 0, y: 88, width: 390, height: 390))
    let button = TransitionOptions(button: cell).filled(for: .circleReveal, width: 390, height: 844)
    #expect(button.button == cell)
    // Styles without rects get none (a rect they do not use is refused).
    for style in TransitionStyle.allCases where style != .zoom && style != .circleReveal {
      let options = TransitionOptions(divisor: 8)
      #expect(options.filled(for: style, width: 390, height: 844) == options)
    }
  }
}
