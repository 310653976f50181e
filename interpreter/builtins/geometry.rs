// Geometry on the table: lengths in micrometres, angles in millidegrees, poses (a point and a
// heading) and shapes (lists of corners); the arithmetic is in runtime/geometry.rs (`geo`). How
// a builtin is added: README.md in this folder.

builtins! {
    /// millimetres as a length (micrometres): mm(12)
    Mm mm(1) -> Int |call| {
        scaled(call, 1_000)?
    }

    /// centimetres as a length (micrometres): cm(10)
    Cm cm(1) -> Int |call| {
        scaled(call, 10_000)?
    }

    /// degrees as an angle (millidegrees): deg(30)
    Deg deg(1) -> Int |call| {
        scaled(call, 1_000)?
    }

    /// a point: point(x, y)
    Point point(2) -> Pose |call| {
        Value::pose(call.int(0)?, call.int(1)?, 0)
    }

    /// a point and a heading: pose(x, y, heading)
    PoseOf pose(3) -> Pose |call| {
        Value::pose(call.int(0)?, call.int(1)?, geo::norm_angle(call.int(2)?))
    }

    /// a pose's x
    PoseX pose_x(1) -> Int |call| {
        Value::Int(call.pose(0)?.x)
    }

    /// a pose's y
    PoseY pose_y(1) -> Int |call| {
        Value::Int(call.pose(0)?.y)
    }

    /// a pose's heading
    HeadingOf heading_of(1) -> Int |call| {
        Value::Int(call.pose(0)?.h)
    }

    /// move a pose by (forward, left) in its own frame, then turn it: step(p, f, l, turn)
    Step step(4) -> Pose |call| {
        pose_value(geo::step(call.pose(0)?, call.int(1)?, call.int(2)?, call.int(3)?))
    }

    /// move a pose forward along its heading
    Forward forward(2) -> Pose |call| {
        pose_value(geo::step(call.pose(0)?, call.int(1)?, 0, 0))
    }

    /// a pose turned by an angle (counterclockwise)
    Turned turned(2) -> Pose |call| {
        pose_value(geo::step(call.pose(0)?, 0, 0, call.int(1)?))
    }

    /// a shape (its corners in its own frame) placed in the world by a pose
    Place place(2) -> Poses |call| {
        shape_value(geo::place(&call.shape(0)?, call.pose(1)?))
    }

    /// the distance between two points
    Distance distance(2) -> Int |call| {
        Value::Int(geo::round_len(geo::dist(call.pose(0)?.p(), call.pose(1)?.p())))
    }

    /// the direction from one point to another, in [0°, 360°)
    Bearing bearing(2) -> Int |call| {
        Value::Int(geo::bearing(call.pose(0)?.p(), call.pose(1)?.p()))
    }

    /// a - b as a turn in (-180°, 180°]
    AngleDiff angle_diff(2) -> Int |call| {
        Value::Int(geo::angle_diff(call.int(0)?, call.int(1)?))
    }

    /// whether a point is inside a shape (or on its edge)
    PointIn point_in(2) -> Bool |call| {
        Value::Bool(geo::point_in(call.pose(0)?.p(), &call.shape(1)?))
    }

    /// whether two shapes overlap (touching counts)
    Overlaps overlaps(2) -> Bool |call| {
        Value::Bool(geo::overlaps(&call.shape(0)?, &call.shape(1)?))
    }

    /// whether the segment from a to b meets a shape: crosses(a, b, shape)
    Crosses crosses(3) -> Bool |call| {
        Value::Bool(geo::crosses(call.pose(0)?.p(), call.pose(1)?.p(), &call.shape(2)?))
    }

    /// the index of the shape's edge the segment from a to b meets first, or none
    FirstEdge first_edge(3) -> Int |call| {
        match geo::first_edge(call.pose(0)?.p(), call.pose(1)?.p(), &call.shape(2)?) {
            Some(i) => Value::Int(i64::try_from(i).unwrap_or(0)),
            None => Value::None,
        }
    }

    /// whether every corner of a shape lies inside another
    Within within(2) -> Bool |call| {
        Value::Bool(geo::within(&call.shape(0)?, &call.shape(1)?))
    }

    /// whether a point lies in the arc of a pose: in_arc(from, half_angle, q)
    InArc in_arc(3) -> Bool |call| {
        Value::Bool(geo::in_arc(call.pose(0)?, call.int(1)?, call.pose(2)?.p()))
    }

    /// the nearest point of a shape inside the arc of a pose, or none
    NearestInArc nearest_in_arc(3) -> Pose |call| {
        geo::nearest_in_arc(call.pose(0)?, call.int(1)?, &call.shape(2)?).map(point_value).unwrap_or_default()
    }

    /// points along a shape's edges, one every `spacing`, that lie in the arc of a pose
    PointsInArc points_in_arc(4) -> Poses |call| {
        shape_value(geo::points_in_arc(call.pose(0)?, call.int(1)?, &call.shape(2)?, call.int(3)? as f64))
    }

    /// the distance from a point to a shape (0 inside)
    DistanceTo distance_to(2) -> Int |call| {
        Value::Int(geo::round_len(geo::distance_to(call.pose(0)?.p(), &call.shape(1)?)))
    }

    /// the distance between two shapes (0 when they overlap)
    ShapeDistance shape_distance(2) -> Int |call| {
        Value::Int(geo::round_len(geo::shape_distance(&call.shape(0)?, &call.shape(1)?)))
    }

    /// a regular polygon of n corners and radius r around the origin
    Regular regular(2) -> Poses |call| {
        let n = usize::try_from(call.int(0)?).unwrap_or(3);
        shape_value(geo::regular(n, call.int(1)? as f64))
    }

    /// a rectangle of a length (along x) and a width, centred on the origin
    Rect rect(2) -> Poses |call| {
        let (l, w) = (call.int(0)? as f64 / 2.0, call.int(1)? as f64 / 2.0);
        shape_value(vec![geo::Point { x: l, y: w }, geo::Point { x: -l, y: w }, geo::Point { x: -l, y: -w }, geo::Point { x: l, y: -w }])
    }

    // Argument 0 times `k` (a length or an angle in the language's units).
    fn scaled(call: &BuiltinCall, k: i64) -> RtResult<Value> {
        call.int(0)?.checked_mul(k).map(Value::Int).ok_or_else(|| overflow(call.span))
    }

    fn pose_value(p: geo::Pose) -> Value {
        Value::pose(p.x, p.y, p.h)
    }

    // A point as a pose heading 0, rounded to the micrometre.
    fn point_value(p: geo::Point) -> Value {
        let q = geo::to_pose(p);
        Value::pose(q.x, q.y, 0)
    }

    fn shape_value(s: Vec<geo::Point>) -> Value {
        Value::list(s.into_iter().map(point_value).collect())
    }
}
