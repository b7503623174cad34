import SleetMath

extension Emitter {
  /// Every layer property that key paths and effect files can name, in the
  /// order effect files list them (`emitterCells` is handled separately).
  /// Vector properties are followed by their components (`emitterSize.width`).
  static let propertyDescriptors: [PropertyDescriptor<Emitter>] = {
    typealias D = PropertyDescriptor<Emitter>
    var all: [D] = [
      .float("birthRate", \.birthRate, .nonNegative),
      .float("lifetime", \.lifetime, .nonNegative),
      .float("velocity", \.velocity),
      .float("scale", \.scale),
      .float("spin", \.spin),
    ]
    all += D.vector("emitterPosition", \.emitterPosition, components: ["x", "y"])
    all.append(.float("emitterZPosition", \.emitterZPosition))
    all += D.vector("emitterSize", \.emitterSize, components: ["width", "height"], .nonNegative)
    all += [
      .float("emitterDepth", \.emitterDepth, .nonNegative),
      .choice("emitterShape", \.emitterShape),
      .choice("emitterMode", \.emitterMode),
      .choice("renderMode", \.renderMode),
      .bool("preservesDepth", \.preservesDepth),
      D(
        name: "seed", kind: .uint32, isComponent: false,
        get: { .number(Double($0.seed)) },
        set: { (root: inout Emitter, value: PropertyValue) throws(PropertyValueProblem) in
          let x = try value.finiteNumber()
          guard x == x.rounded(), x >= 0, x <= Double(UInt32.max) else {
            throw PropertyValueProblem(
              reason: "expected an integer from 0 to 4294967295, got \(formatNumber(x))")
          }
          root.seed = UInt32(x)
        }),
      .double("beginTime", \.beginTime),
      .float("speed", \.speed, .nonNegative),
      .double("timeOffset", \.timeOffset),
    ]
    return all
  }()

  static let propertiesByName: [String: PropertyDescriptor<Emitter>] =
    Dictionary(uniqueKeysWithValues: propertyDescriptors.map { ($0.name, $0) })
}

extension EmitterCell {
  /// The sampling filter names Core Animation knows (`kCAFilterLinear`, …):
  /// the raw values of ``SamplingFilter``.
  public static let filterNames = SamplingFilter.allCases.map(\.rawValue)

  /// Every cell property that key paths and effect files can name, in the
  /// order effect files list them (`name` and `emitterCells` are handled
  /// separately). Vector properties are followed by their components.
  static let propertyDescriptors: [PropertyDescriptor<EmitterCell>] = {
    typealias D = PropertyDescriptor<EmitterCell>
    var all: [D] = [
      .bool("enabled", \.isEnabled),
      .float("birthRate", \.birthRate, .nonNegative),
      .float("lifetime", \.lifetime, .nonNegative),
      .float("lifetimeRange", \.lifetimeRange, .nonNegative),
      .float("velocity", \.velocity),
      .float("velocityRange", \.velocityRange, .nonNegative),
      .float("xAcceleration", \.xAcceleration),
      .float("yAcceleration", \.yAcceleration),
      .float("zAcceleration", \.zAcceleration),
      .float("mass", \.mass, .positive),
      .float("massRange", \.massRange, .nonNegative),
      .float("emissionLatitude", \.emissionLatitude),
      .float("emissionLongitude", \.emissionLongitude),
      .float("emissionRange", \.emissionRange, .nonNegative),
      .float("scale", \.scale),
      .float("scaleRange", \.scaleRange, .nonNegative),
      .float("scaleSpeed", \.scaleSpeed),
      .float("spin", \.spin),
      .float("spinRange", \.spinRange, .nonNegative),
    ]
    all += D.vector(
      "color", \.color.vector, components: ["red", "green", "blue", "alpha"], .unitInterval,
      acceptsCount: 3...4)
    all += [
      .float("redRange", \.redRange, .nonNegative),
      .float("greenRange", \.greenRange, .nonNegative),
      .float("blueRange", \.blueRange, .nonNegative),
      .float("alphaRange", \.alphaRange, .nonNegative),
      .float("redSpeed", \.redSpeed),
      .float("greenSpeed", \.greenSpeed),
      .float("blueSpeed", \.blueSpeed),
      .float("alphaSpeed", \.alphaSpeed),
      D(
        name: "contents", kind: .sprite, isComponent: false,
        get: { .string($0.contents?.name ?? "") },
        set: { (root: inout EmitterCell, value: PropertyValue) throws(PropertyValueProblem) in
          let s = try value.stringValue()
          if s.isEmpty {
            root.contents = nil
            return
          }
          guard SpriteReference.builtInNames.contains(s) || s.lowercased().hasSuffix(".png") else {
            var reason =
              "unknown sprite '\(s)': expected one of \(SpriteReference.builtInNames.joined(separator: ", "))"
              + " or the path of a .png file"
            if let near = closestName(to: s, in: SpriteReference.builtInNames) {
              reason += " (did you mean '\(near)'?)"
            }
            throw PropertyValueProblem(reason: reason)
          }
          root.contents = SpriteReference(s)
        }),
    ]
    all += D.vector(
      "contentsRect", \.contentsRect, components: ["origin.x", "origin.y", "size.width", "size.height"])
    all += [
      .float("contentsScale", \.contentsScale, .positive),
      .filterName("magnificationFilter", \.magnificationFilter),
      .filterName("minificationFilter", \.minificationFilter),
      .float("minificationFilterBias", \.minificationFilterBias),
      .double("beginTime", \.beginTime),
      .double("duration", \.duration, .nonNegative),
      .float("speed", \.speed, .nonNegative),
      .double("timeOffset", \.timeOffset),
    ]
    return all
  }()

  static let propertiesByName: [String: PropertyDescriptor<EmitterCell>] =
    Dictionary(uniqueKeysWithValues: propertyDescriptors.map { ($0.name, $0) })

  /// Why the cell breaks a rule that spans two properties, or nil: the key
  /// to blame and the reason. Each property's own rule is its descriptor's;
  /// this one needs both values, so it runs after a whole cell is read (and
  /// after a key path sets one of them). A particle's mass is sampled on
  /// [mass − massRange/2, mass + massRange/2] and divides the behavior
  /// forces, so the whole range must stay above 0.
  /// - Complexity: O(1).
  func crossPropertyProblem() -> (key: String, reason: String)? {
    let least = Double(mass) - Double(massRange) / 2
    guard least > 0 else {
      return (
        "massRange",
        "mass − massRange/2 must be > 0 (every particle's mass must be positive), got "
          + "\(formatNumber(Double(mass))) − \(formatNumber(Double(massRange)))/2 = \(formatNumber(least))"
      )
    }
    return nil
  }
}
