#if Macros
import FastDelegates
import Foundation

/// AVFAudio's `AVAudioPlayerDelegate` as the iOS 18 SDK imports it into Swift
/// (`protocol AVAudioPlayerDelegate : NSObjectProtocol`: neither `@MainActor` nor `Sendable`;
/// every requirement `optional`). 4 requirements, 2 of them deprecated since iOS 8 (use
/// AVAudioSession's interruption notification instead).
@DelegateProxy
public protocol AVAudioPlayerDelegate: AnyObject {
    func audioPlayerDidFinishPlaying(_ player: AVAudioPlayer, successfully flag: Bool)
    func audioPlayerDecodeErrorDidOccur(_ player: AVAudioPlayer, error: (any Error)?)
    @available(*, deprecated, message: "iOS 2.2–8.0: observe AVAudioSession.interruptionNotification instead")
    func audioPlayerBeginInterruption(_ player: AVAudioPlayer)
    @available(*, deprecated, message: "iOS 6.0–8.0: observe AVAudioSession.interruptionNotification instead")
    func audioPlayerEndInterruption(_ player: AVAudioPlayer, withOptions flags: Int)
}
#endif
