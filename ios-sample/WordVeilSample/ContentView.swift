import SwiftUI
import UIKit

/// Try WordVeil without the keyboard: pick a mechanism and a privacy level,
/// privatize a text, and see input and output side by side with the
/// accounting; "Deniability" estimates how often a word survives unchanged
/// (N_w) and how many different outputs it has (S_w). Nothing here leaves
/// the device.
struct ContentView: View {
    @StateObject private var model = DemoModel()

    var body: some View {
        NavigationView {
            Form {
                Section(header: Text("Text")) {
                    TextEditor(text: $model.input)
                        .frame(minHeight: 90)
                        .disableAutocorrection(true)
                }
                Section(header: Text("Setting")) {
                    Picker("Mechanism", selection: $model.mechanism) {
                        ForEach(WordVeilSetup.mechanisms, id: \.self) { Text($0) }
                    }
                    Picker("Level", selection: $model.preset) {
                        ForEach(WordVeilSetup.presets, id: \.self) { Text($0) }
                    }
                    .pickerStyle(.segmented)
                }
                Section {
                    // One button per row: a Form row with two buttons would fire both.
                    Button("Privatize") { model.privatize() }
                    Button("Deniability (N_w, S_w)") { model.deniability() }
                    if model.busy {
                        ProgressView()
                    }
                }
                .disabled(model.busy)
                Section(header: Text("Result")) {
                    HStack(alignment: .top, spacing: 12) {
                        VStack(alignment: .leading, spacing: 4) {
                            Text("Input (stays on the device)").font(.caption).bold()
                            Text(model.shownInput).textSelection(.enabled)
                        }
                        .frame(maxWidth: .infinity, alignment: .leading)
                        VStack(alignment: .leading, spacing: 4) {
                            Text("Privatized (what an app would upload)").font(.caption).bold()
                            Text(model.output).textSelection(.enabled)
                        }
                        .frame(maxWidth: .infinity, alignment: .leading)
                    }
                    if let error = model.errorMessage {
                        Text(error).foregroundColor(.red)
                    }
                    Text(model.report)
                        .font(.system(.footnote, design: .monospaced))
                        .textSelection(.enabled)
                }
                Section(header: Text("Keyboard"), footer: Text(model.version)) {
                    Text("Settings › General › Keyboard › Keyboards › Add New Keyboard… › WordVeil Private, then allow Full Access (needed for the shared privacy ledger).")
                        .font(.footnote)
                    Button("Open Settings") {
                        if let url = URL(string: UIApplication.openSettingsURLString) {
                            UIApplication.shared.open(url)
                        }
                    }
                }
            }
            .navigationTitle("WordVeil")
        }
        .navigationViewStyle(.stack)
    }
}
