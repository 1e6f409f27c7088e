import SwiftUI

@main
struct WordVeilSampleApp: App {
    var body: some Scene {
        WindowGroup {
            ContentView()
        }
    }
}
