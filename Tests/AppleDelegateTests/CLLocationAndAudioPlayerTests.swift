#if Macros
import AppleDelegates
import FastDelegates
import Foundation
import Testing

/// Map pin: follows locations only.
final class MapPin: CLLocationManagerDelegate {
    var updates = 0
    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        updates += locations.count
    }
}

/// Wants the calibration alert.
final class CompassScreen: CLLocationManagerDelegate {
    func locationManagerShouldDisplayHeadingCalibration(_ manager: CLLocationManager) -> Bool { true }
}

/// Implements only the current authorization callback (not the deprecated one).
final class PermissionWatcher: CLLocationManagerDelegate {
    var changes = 0
    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) { changes += 1 }
}

/// Playlist: advances when a track finishes.
final class Playlist: AVAudioPlayerDelegate {
    var finished: [Bool] = []
    func audioPlayerDidFinishPlaying(_ player: AVAudioPlayer, successfully flag: Bool) { finished.append(flag) }
}

extension CLLocationManager {
    func deliver(_ count: Int) {
        delegate?.locationManager(self, didUpdateLocations: (0..<count).map { _ in CLLocation() })
    }
    func needsCalibration() -> Bool { delegate?.locationManagerShouldDisplayHeadingCalibration(self) ?? false }
}

@Suite("CLLocationManagerDelegate and AVAudioPlayerDelegate proxies (nonisolated, not Sendable)")
struct CLLocationAndAudioPlayerTests {
    @Test("Locations reach the map pin; shouldDisplayHeadingCalibration defaults to false")
    func locations() {
        let manager = CLLocationManager()
        let proxy = CLLocationManagerDelegateProxy()
        manager.delegate = proxy
        let pin = MapPin()
        proxy.add(pin)
        manager.deliver(2)
        #expect(pin.updates == 2)
        #expect(!manager.needsCalibration())
        let compass = CompassScreen()
        proxy.add(compass)
        #expect(manager.needsCalibration())
    }

    @Test("responds(to:) separates the current authorization callback from the deprecated one, once sent")
    func authorizationForms() {
        let proxy = CLLocationManagerDelegateProxy()
        let watcher = PermissionWatcher()
        proxy.add(watcher)
        let manager = CLLocationManager()
        // The two callbacks share a readable name, so their messages spell out their labels.
        let current = CLLocationManagerDelegateMessages.locationManagerDidChangeAuthorization_
        let deprecated = CLLocationManagerDelegateMessages.locationManager__didChangeAuthorization
        // Before a send asks it, a listener counts as responding (it may implement either).
        #expect(proxy.chain.responds(to: deprecated))
        proxy.locationManagerDidChangeAuthorization(manager)
        proxy.chain.send(requirement: deprecated, (manager, .authorizedAlways))
        #expect(watcher.changes == 1)
        #expect(proxy.chain.responds(to: current))
        #expect(!proxy.chain.responds(to: deprecated))
    }

    @Test("The playlist hears finished tracks; the deprecated interruption messages are forwarded too")
    func audioPlayer() {
        let player = AVAudioPlayer()
        let proxy = AVAudioPlayerDelegateProxy()
        player.delegate = proxy
        let playlist = Playlist()
        proxy.add(playlist)
        player.delegate?.audioPlayerDidFinishPlaying(player, successfully: true)
        #expect(playlist.finished == [true])
        // The deprecated message, sent as a host built before the deprecation would: the playlist
        // does not implement it, so it is not counted once asked.
        proxy.chain.send(requirement: AVAudioPlayerDelegateMessages.audioPlayerBeginInterruption, player)
        #expect(!proxy.chain.responds(to: AVAudioPlayerDelegateMessages.audioPlayerBeginInterruption))
    }
}
#endif
