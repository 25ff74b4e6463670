// A Sendable conformer of TickListener.

final class Ticker: TickListener {
    func scrolled(_ offset: Double) {}
}

let listener = Ticker()
