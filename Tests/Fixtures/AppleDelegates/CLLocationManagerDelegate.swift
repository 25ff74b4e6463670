#if Macros
import FastDelegates
import Foundation

/// CoreLocation's `CLLocationManagerDelegate` as the iOS 18 SDK imports it into Swift
/// (`protocol CLLocationManagerDelegate : NSObjectProtocol`: neither `@MainActor` nor `Sendable`;
/// every requirement `optional`). 20 requirements.
@DelegateProxy
public protocol CLLocationManagerDelegate: AnyObject {
    // Responding to location events
    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation])
    @available(*, deprecated, message: "iOS 2.0–6.0: implement locationManager(_:didUpdateLocations:) instead")
    func locationManager(
        _ manager: CLLocationManager, didUpdateTo newLocation: CLLocation, from oldLocation: CLLocation)
    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error)
    func locationManager(_ manager: CLLocationManager, didFinishDeferredUpdatesWithError error: (any Error)?)

    // Pausing location updates
    func locationManagerDidPauseLocationUpdates(_ manager: CLLocationManager)
    func locationManagerDidResumeLocationUpdates(_ manager: CLLocationManager)

    // Responding to heading events
    func locationManager(_ manager: CLLocationManager, didUpdateHeading newHeading: CLHeading)
    // Apple: "If you return false from this method or do not provide an implementation for it in
    // your delegate, Core Location does not display the heading calibration alert."
    @DelegateDefault(false)
    func locationManagerShouldDisplayHeadingCalibration(_ manager: CLLocationManager) -> Bool

    // Responding to region events
    func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion)
    func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion)
    func locationManager(_ manager: CLLocationManager, didDetermineState state: CLRegionState, for region: CLRegion)
    func locationManager(
        _ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?, withError error: any Error)
    func locationManager(_ manager: CLLocationManager, didStartMonitoringFor region: CLRegion)

    // Responding to ranging events
    func locationManager(
        _ manager: CLLocationManager,
        didRange beacons: [CLBeacon],
        satisfying beaconConstraint: CLBeaconIdentityConstraint
    )
    func locationManager(
        _ manager: CLLocationManager,
        didFailRangingFor beaconConstraint: CLBeaconIdentityConstraint,
        error: any Error
    )
    @available(*, deprecated, message: "iOS 7.0–13.0: use locationManager(_:didRange:satisfying:)")
    func locationManager(_ manager: CLLocationManager, didRangeBeacons beacons: [CLBeacon], in region: CLBeaconRegion)
    @available(*, deprecated, message: "iOS 7.0–13.0: use locationManager(_:didFailRangingFor:error:)")
    func locationManager(
        _ manager: CLLocationManager,
        rangingBeaconsDidFailFor region: CLBeaconRegion,
        withError error: any Error
    )

    // Responding to visit events
    func locationManager(_ manager: CLLocationManager, didVisit visit: CLVisit)

    // Responding to authorization changes
    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager)
    @available(*, deprecated, message: "iOS 4.2–14.0: use locationManagerDidChangeAuthorization(_:)")
    func locationManager(_ manager: CLLocationManager, didChangeAuthorization status: CLAuthorizationStatus)
}
#endif
