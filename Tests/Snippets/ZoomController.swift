@MainActor let zoomController = ZoomController()
